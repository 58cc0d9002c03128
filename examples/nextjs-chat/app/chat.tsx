'use client';

import { useChat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { type FormEvent, useState } from 'react';
import type { ModelOption } from './models';

export function Chat({ models, initialModel }: { models: ModelOption[]; initialModel: string }) {
  const [model, setModel] = useState(initialModel);
  const [input, setInput] = useState('');
  const { messages, sendMessage, status, error, stop, clearError } = useChat();
  const busy = status === 'submitted' || status === 'streaming';
  const selected = models.find((option) => option.id === model);

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = input.trim();
    if (!text || busy) return;
    if (error) clearError();
    setInput('');
    // The route reads these fields next to the messages.
    void sendMessage({ text }, { body: { model, useTools: selected?.tools ?? false } });
  }

  return (
    <>
      <header>
        <h1>infergate chat</h1>
        <label>
          Model{' '}
          <select
            aria-label="Model"
            value={model}
            onChange={(event) => setModel(event.target.value)}
            disabled={busy}
          >
            {models.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
                {option.tools ? ' · tools' : ''}
              </option>
            ))}
          </select>
        </label>
      </header>

      <section className="messages" aria-live="polite">
        {messages.map((message) => (
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
          </article>
        ))}
      </section>

      {error && (
        <div className="error" role="alert" data-testid="chat-error">
          <strong>The request failed.</strong> {error.message}
        </div>
      )}

      <form onSubmit={submit}>
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

/** A reasoning model's thinking, collapsed above its answer (reasoning parts are not the answer). */
function Reasoning({ parts }: { parts: UIMessage['parts'] }) {
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
