// Bun.serve on a free loopback port, printed as PORT=<n>; settings are written into the bundle.
import { handle, type Settings } from './handler';

declare const __SETTINGS__: Settings;
declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    idleTimeout: number;
    fetch(request: Request): Promise<Response>;
  }): { port: number };
};

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  idleTimeout: 60,
  fetch: (request) => handle(request, __SETTINGS__),
});
console.log(`PORT=${server.port}`);
