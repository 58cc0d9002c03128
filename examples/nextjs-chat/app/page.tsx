import { Chat } from './chat';
import { PREFERRED_MODEL, streamingModels } from './models';

// The model list comes from the gateway on each request, never at build time.
export const dynamic = 'force-dynamic';

export default async function Page() {
  const models = await streamingModels();
  const initial = models.find((model) => model.id === PREFERRED_MODEL)?.id ?? models[0]?.id ?? '';
  return (
    <main>
      <Chat models={models} initialModel={initial} />
    </main>
  );
}
