'use client';

import { useChat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { type SubmitEvent, useRef, useState } from 'react';
import type { AnswerMetadata } from './message-metadata';
import { unavailableReason } from './model-availability';
import type { ModelOption } from './models';
import { useScrollToNewest } from './use-scroll-to-newest';

type ChatMessage = UIMessage<AnswerMetadata>;

export function Chat({ models, initialModel }: { models: ModelOption[]; initialModel: string }) {
  const [model, setModel] = useState(initialModel);
  const selected = models.find((option) => option.id === model);
  const [toolsOn, setToolsOn] = useState(selected?.tools ?? false);
  const [input, setInput] = useState('');
  // Ids of answers the user stopped (the stream ended by Stop, not by the model).
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());
  const [stoppedBeforeAnswer, setStoppedBeforeAnswer] = useState(false);
  const { messages, sendMessage, status, error, stop, clearError } = useChat<ChatMessage>({
    onFinish: ({ message, messages: all, isAbort }) => {
      if (!isAbort) return;
      if (all.some((shown) => shown.id === message.id)) {
        setStopped((ids) => new Set(ids).add(message.id));
      } else {
        setStoppedBeforeAnswer(true);
      }
    },
  });
  const busy = status === 'submitted' || status === 'streaming';
  const bar = useRef<HTMLFormElement>(null);
  const list = useRef<HTMLElement>(null);
  useScrollToNewest(bar, list, { messages: messages.length, error: error?.message });

  const unavailable = models.filter((option) => unavailableReason(option, toolsOn));

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = input.trim();
    if (!text || busy) return;
    if (error) clearError();
    setStoppedBeforeAnswer(false);
    setInput('');
    // The route reads these fields next to the messages.
    void sendMessage(
      { text },
      { body: { model, useTools: toolsOn && (selected?.tools ?? false) } },
    );
  }

  return (
    <>
      <header>
        <h1>infergate chat</h1>
        <div className="controls">
          <label>
            Model{' '}
            <select
              aria-label="Model"
              value={model}
              onChange={(event) => setModel(event.target.value)}
              disabled={busy}
            >
              {models.map((option) => {
                const reason = unavailableReason(option, toolsOn);
                return (
                  <option key={option.id} value={option.id} disabled={reason !== undefined}>
                    {option.label}
                    {option.tools ? ' · tools' : ''}
                    {reason ? ` — unavailable: ${reason}` : ''}
                  </option>
                );
              })}
            </select>
          </label>
          <label title={selected?.tools ? undefined : `${model} has no tools capability`}>
            <input
              type="checkbox"
              aria-label="Tools"
              checked={toolsOn && (selected?.tools ?? false)}
              disabled={busy || !selected?.tools}
              onChange={(event) => setToolsOn(event.target.checked)}
            />{' '}
            Tools (get_weather)
          </label>
        </div>
      </header>
      {unavailable.length > 0 && (
        <p className="note" data-testid="model-note">
          {unavailable.length} of {models.length} models are greyed out: the chat streams its
          answers, so models without streaming cannot answer it
          {toolsOn
            ? ', and with Tools on, models without tools would refuse get_weather (turn Tools off to use them)'
            : ''}
          .
        </p>
      )}

      <section className="messages" aria-live="polite" ref={list}>
        {messages.filter(isShown).map((message) => (
          <article key={message.id} className={`message ${message.role}`} data-role={message.role}>
            <div className="role">{message.role === 'user' ? 'You' : 'Assistant'}</div>
            <Reasoning parts={message.parts} />
            {message.parts.map((part, index) => {
              const key = `${message.id}-${index}`;
              if (part.type === 'text') return <span key={key}>{part.text}</span>;
              if (part.type.startsWith('tool-') && 'toolCallId' in part) {
                return (
                  <div key={key} className="tool" data-testid="tool-call">
                    tool {part.type.slice('tool-'.length)}({JSON.stringify(part.input ?? {})})
                    {part.state === 'output-available' && <> → {JSON.stringify(part.output)}</>}
                    {part.state === 'output-error' && <> → error: {part.errorText}</>}
                  </div>
                );
              }
              return null;
            })}
            {stopped.has(message.id) && (
              <div className="stopped" data-testid="stopped">
                Stopped — the answer was cut off here.
              </div>
            )}
            {message.role === 'assistant' && <ServedModel metadata={message.metadata} />}
          </article>
        ))}
        {stoppedBeforeAnswer && (
          <div className="stopped" data-testid="stopped">
            Stopped before the answer began.
          </div>
        )}
      </section>

      {error && (
        <div className="error" role="alert" data-testid="chat-error">
          <strong>The request failed.</strong> {error.message}
        </div>
      )}

      <form onSubmit={submit} ref={bar}>
        <div>
          <input
            aria-label="Message"
            placeholder='Ask something, e.g. Use get_weather for "Kyiv"'
            value={input}
            onChange={(event) => setInput(event.target.value)}
          />
          {busy ? (
            <button type="button" onClick={() => stop()}>
              Stop
            </button>
          ) : (
            <button type="submit" disabled={!input.trim()}>
              Send
            </button>
          )}
        </div>
        <div className="status" data-testid="status">
          {status}
        </div>
      </form>
    </>
  );
}

/** An assistant message is shown once it has something to show (a failed request leaves none). */
function isShown(message: ChatMessage): boolean {
  return (
    message.role !== 'assistant' ||
    message.parts.some(
      (part) =>
        (part.type === 'text' && part.text.length > 0) ||
        part.type === 'reasoning' ||
        part.type.startsWith('tool-'),
    )
  );
}

/** The model that answered; a badge when the gateway fell back to another than the one asked. */
function ServedModel({ metadata }: { metadata: AnswerMetadata | undefined }) {
  if (!metadata?.servedModel) return null;
  return (
    <div className="served" data-testid="served-model">
      answered by {metadata.servedModel}
      {metadata.fallback && (
        <span
          className="badge"
          data-testid="fallback-badge"
          title={`${metadata.requestedModel} was asked for; the gateway answered with ${metadata.servedModel}`}
        >
          fallback for {metadata.requestedModel}
        </span>
      )}
    </div>
  );
}

/** A reasoning model's thinking, collapsed above its answer (reasoning parts are not the answer). */
function Reasoning({ parts }: { parts: ChatMessage['parts'] }) {
  const text = parts
    .map((part) => (part.type === 'reasoning' ? part.text : ''))
    .join('')
    .trim();
  if (!text) return null;
  return (
    <details className="reasoning" data-testid="reasoning">
      <summary>Reasoning</summary>
      {text}
    </details>
  );
}
