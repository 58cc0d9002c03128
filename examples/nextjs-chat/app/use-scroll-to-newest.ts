'use client';

import { type RefObject, useEffect, useRef } from 'react';

const NEAR_BOTTOM_PX = 48;

function scrollToBottom(): void {
  // Instant, not smooth: the newest line is in view as soon as it is drawn.
  window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
}

/**
 * Keeps the newest message and the error box in view, above the fixed input bar.
 *
 * - The page reserves the bar's height (measured, it grows with the status line) at its bottom
 *   (`--bar-height`), so the end of the page is never under the bar.
 * - A new message or a new error always scrolls to the end.
 * - A streaming answer that grows keeps the end in view only while the reader is at the bottom:
 *   scrolling up to read an earlier answer is not undone by the next token.
 */
export function useScrollToNewest(
  bar: RefObject<HTMLElement | null>,
  list: RefObject<HTMLElement | null>,
  newest: { messages: number; error: string | undefined },
): void {
  const atBottom = useRef(true);

  useEffect(() => {
    const onScroll = () => {
      const seen = window.scrollY + window.innerHeight;
      atBottom.current = seen >= document.documentElement.scrollHeight - NEAR_BOTTOM_PX;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      document.documentElement.style.setProperty('--bar-height', `${element.offsetHeight}px`);
      if (atBottom.current) scrollToBottom();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [bar]);

  useEffect(() => {
    const element = list.current;
    if (!element) return;
    const observer = new MutationObserver(() => {
      if (atBottom.current) scrollToBottom();
    });
    observer.observe(element, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [list]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a message or an error appears
  useEffect(() => {
    atBottom.current = true;
    scrollToBottom();
  }, [newest.messages, newest.error]);
}
