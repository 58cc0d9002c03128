import { startEmulator } from './server';

/** Shows the emulator answering: the catalog, one JSON chat completion and one streamed. */
async function main(): Promise<void> {
  const server = await startEmulator({ port: 0 });
  const headers = {
    authorization: `Bearer ${server.apiKey}`,
    'content-type': 'application/json',
  };
  console.log(`infergate emulator demo at ${server.url} (API key ${server.apiKey})\n`);
  try {
    const models = (await (await fetch(`${server.url}/models`, { headers })).json()) as {
      data: { id: string; capabilities: string[] }[];
    };
    console.log(`GET /models: ${models.data.length} models`);
    for (const model of models.data.slice(0, 6)) {
      console.log(`  ${model.id.padEnd(24)} ${model.capabilities.join(', ')}`);
    }

    const request = {
      model: 'community/general',
      messages: [{ role: 'user', content: 'Hello from the infergate demo' }],
    };
    const completion = (await (
      await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(request),
      })
    ).json()) as { choices: { message: { content: string } }[] };
    console.log(`\nPOST /chat/completions: ${completion.choices[0]?.message.content}`);

    const streamed = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers,
      // Usage comes in a stream only when asked, as from vLLM or llama.cpp.
      body: JSON.stringify({ ...request, stream: true, stream_options: { include_usage: true } }),
    });
    console.log('\nPOST /chat/completions (stream: true, include_usage), raw events:');
    process.stdout.write(await streamed.text());
  } finally {
    await server.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
