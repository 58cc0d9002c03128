import { Chat } from './chat';
import { chatModels, PREFERRED_MODEL, unlistedModel } from './models';

// The model list comes from the gateway on each request, never at build time.
export const dynamic = 'force-dynamic';

/** `/?model=<id>` starts the chat with that model, even one the catalog does not list now. */
export default async function Page({
  searchParams,
}: {
  searchParams: Promise<{ model?: string | string[] }>;
}) {
  const asked = (await searchParams).model;
  const wanted = typeof asked === 'string' && asked ? asked : PREFERRED_MODEL;
  const models = await chatModels();
  if (typeof asked === 'string' && asked && !models.some((model) => model.id === asked)) {
    models.unshift(unlistedModel(asked));
  }
  const usable = models.filter((model) => model.streaming);
  const initial = usable.find((model) => model.id === wanted)?.id ?? usable[0]?.id ?? '';
  return (
    <main>
      <Chat models={models} initialModel={initial} />
    </main>
  );
}
