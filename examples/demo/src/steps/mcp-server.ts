import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { IMAGE_TEXT, readAsset } from '../assets.ts';
import { line, ok } from '../terminal.ts';
import { expect, type Step } from '../tour.ts';

/** The first text block of a tool result. */
const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text?: string }[]).find((part) => part.type === 'text')
    ?.text ?? '';

export const mcpServer: Step = {
  title: 'An MCP server for agents',
  what: 'infergate-mcp started over stdio as Claude Desktop or VS Code would; the MCP SDK’s client lists its tools, reads a file with ocr and translates the text.',
  async run(tour) {
    const require = createRequire(import.meta.url);
    const bin = join(
      dirname(require.resolve('@infergate/mcp/package.json')),
      'bin',
      'infergate-mcp.js',
    );
    // The server reads files only under its roots: give it a folder with the invoice in it.
    const root = await mkdtemp(join(tmpdir(), 'infergate-demo-mcp-'));
    await writeFile(join(root, 'invoice.png'), await readAsset('invoice.png'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, '--root', root],
      env: {
        PATH: process.env.PATH ?? '',
        INFERGATE_BASE_URL: tour.client.baseURL,
        INFERGATE_API_KEY: tour.apiKey,
      },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'infergate-demo', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      line(`tools: ${names.join(', ')}`);
      expect(names.includes('translate'), 'the translate tool is offered');

      let text = 'Good morning! The invoice is due on Friday.';
      if (names.includes('ocr')) {
        const read = await client.callTool({
          name: 'ocr',
          arguments: { image_path: 'invoice.png' },
        });
        expect(!read.isError, `ocr succeeded (${textOf(read)})`);
        text = textOf(read);
        line(`→ ocr({"image_path":"invoice.png"}) → mcp ocr: ${text}`);
        if (tour.emulator) expect(text === IMAGE_TEXT, `the text is "${IMAGE_TEXT}"`);
      } else {
        // A service without available nodes is left out of the tool list (and clients are told).
        line('ocr is not offered: the OCR service has no available nodes now');
      }
      const translated = await client.callTool({
        name: 'translate',
        arguments: { text, target_language: 'uk' },
      });
      expect(!translated.isError, `translate succeeded (${textOf(translated)})`);
      line(`→ translate(… "uk") → mcp translate: ${textOf(translated)}`);

      const refused = await client.callTool({
        name: 'ocr',
        arguments: { image_path: '../../etc/passwd' },
      });
      expect(refused.isError === true, 'a path outside the root is refused');
      line(`→ ocr({"image_path":"../../etc/passwd"}) → refused: ${textOf(refused).split(';')[0]}`);
      ok(`${names.length} tools over stdio; files only under --root`);
    } finally {
      await client.close();
      await rm(root, { recursive: true, force: true });
    }
  },
};
