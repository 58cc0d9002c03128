import { line, ok } from '../terminal.ts';
import { expect, type Step } from '../tour.ts';

export const listCatalog: Step = {
  title: 'Models and services',
  what: 'GET /models and GET /capabilities: what this key may use, and what each model can do.',
  async run({ client, catalog }) {
    expect(catalog.length > 0, 'the key may use at least one model');
    // The emulator lists all 16 capability combinations as combo/*; summarise those.
    const combos = catalog.filter((model) => model.id.startsWith('combo/'));
    for (const model of catalog.filter((m) => !m.id.startsWith('combo/')).slice(0, 20)) {
      line(`${model.id.padEnd(26)} ${model.owned_by.padEnd(18)} ${model.capabilities.join(', ')}`);
    }
    if (combos.length > 0) {
      line(`${`combo/* (${combos.length})`.padEnd(26)} one model per combination of capabilities`);
    }
    const services = await client.services();
    line();
    for (const service of services) {
      const engines = service.engines?.map((engine) => engine.id).join(', ');
      line(
        `${service.id.padEnd(16)} ${String(service.available_nodes).padStart(2)} node(s) ${
          engines ? `engines: ${engines}` : ''
        }`,
      );
    }
    ok(`${catalog.length} models, ${services.length} services`);
  },
};
