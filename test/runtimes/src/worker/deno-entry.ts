// Deno.serve on a free loopback port, printed as PORT=<n>; settings are written into the bundle.
import { handle, type Settings } from './handler';

declare const __SETTINGS__: Settings;
declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

Deno.serve(
  {
    port: 0,
    hostname: '127.0.0.1',
    onListen: ({ port }) => console.log(`PORT=${port}`),
  },
  (request) => handle(request, __SETTINGS__),
);
