// Vercel's edge-runtime (service-worker syntax); settings are written into the bundle.
import { handle, type Settings } from './handler';

declare const __SETTINGS__: Settings;

addEventListener('fetch', (event) => {
  const fetchEvent = event as Event & {
    request: Request;
    respondWith(response: Promise<Response>): void;
  };
  fetchEvent.respondWith(handle(fetchEvent.request, __SETTINGS__));
});
