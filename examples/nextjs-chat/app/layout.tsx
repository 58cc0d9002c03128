import type { ReactNode } from 'react';

export const metadata = { title: 'infergate chat', description: 'Next.js + AI SDK + infergate' };

const css = `
  body { font-family: system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1c1e21; }
  main { max-width: 760px; margin: 0 auto; padding: 24px 16px calc(var(--bar-height, 96px) + 16px); }
  header { display: flex; align-items: center; justify-content: space-between; gap: 12px; flex-wrap: wrap; }
  h1 { font-size: 20px; margin: 0; }
  .controls { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; min-width: 0; }
  .controls select { max-width: min(440px, 100%); }
  .note { font-size: 12px; color: #60646c; margin: 8px 0 0; }
  select, input, button { font: inherit; padding: 8px 10px; border-radius: 8px; border: 1px solid #c9ccd1; }
  input[type="checkbox"] { padding: 0; }
  button { background: #1f6feb; color: white; border-color: #1f6feb; cursor: pointer; }
  button:disabled { opacity: 0.5; cursor: default; }
  .messages { display: flex; flex-direction: column; gap: 10px; margin: 20px 0; }
  .message { padding: 10px 14px; border-radius: 10px; background: white; border: 1px solid #e3e5e8; white-space: pre-wrap; }
  .message.user { align-self: flex-end; background: #e7f0ff; border-color: #c6dafc; }
  .role { font-size: 12px; color: #60646c; margin-bottom: 4px; }
  .reasoning { font-size: 13px; color: #60646c; border-left: 3px solid #d0d4da; padding: 2px 8px; margin: 4px 0 8px; }
  .reasoning summary { cursor: pointer; }
  .tool { font-family: ui-monospace, monospace; font-size: 13px; background: #f2f3f5; border-radius: 6px; padding: 6px 8px; margin: 6px 0; }
  .stopped { font-size: 12px; color: #8a5a00; margin-top: 6px; }
  .served { font-size: 12px; color: #60646c; margin-top: 6px; display: flex; gap: 6px; align-items: center; }
  .badge { background: #fff4d6; color: #7a4b00; border: 1px solid #f0d58c; border-radius: 999px; padding: 0 8px; }
  .error { background: #fdecea; border: 1px solid #f5c2c0; color: #8a1c17; padding: 10px 14px; border-radius: 10px; white-space: pre-wrap; overflow-wrap: anywhere; }
  form { position: fixed; bottom: 0; left: 0; right: 0; background: #f6f7f9; border-top: 1px solid #e3e5e8; }
  form div { max-width: 760px; margin: 0 auto; padding: 12px 16px; display: flex; gap: 8px; }
  form input[aria-label="Message"] { flex: 1; }
  .status { font-size: 12px; color: #60646c; }
`;

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <style>{css}</style>
      </head>
      <body>{children}</body>
    </html>
  );
}
