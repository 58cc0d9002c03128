import { describe, expect, it } from 'vitest';
import { ChatAssembler } from './assemble-chat';

describe('ChatAssembler text', () => {
  it('joins the deltas of choice 0 in order across many flattened pieces', () => {
    const assembler = new ChatAssembler();
    const deltas = Array.from({ length: 3000 }, (_, i) => `${i},`);
    for (const delta of deltas) {
      assembler.addText(delta, 0);
      assembler.addText('other', 1);
    }
    expect(assembler.text).toBe(deltas.join(''));
    assembler.addText('end', 0);
    expect(assembler.text).toBe(`${deltas.join('')}end`);
    assembler.setFinish('stop', 0);
    expect(assembler.result().text).toBe(`${deltas.join('')}end`);
  });

  it('starts empty and can be overwritten', () => {
    const assembler = new ChatAssembler();
    expect(assembler.text).toBe('');
    assembler.addText('a', 0);
    assembler.text = 'replaced';
    assembler.addText('!', 0);
    expect(assembler.text).toBe('replaced!');
  });
});

describe('ChatAssembler tool calls', () => {
  /** A piece as the stream decoder adds one without `index`: asks `startsNextCall` first. */
  function addWithoutIndex(assembler: ChatAssembler, latest: number, name: string, args: string) {
    const index = assembler.startsNextCall(latest, undefined, name) ? latest + 1 : latest;
    return { index, ...assembler.addToolCallDelta(index, undefined, name, args) };
  }

  it('keeps two whole calls of a tool without parameters apart (no index, no id, arguments "")', () => {
    const assembler = new ChatAssembler();
    const a = addWithoutIndex(assembler, 0, 'now', '');
    const b = addWithoutIndex(assembler, a.index, 'now', '');
    expect([a.call, b.call]).toEqual([0, 1]);
    assembler.setFinish('tool_calls', 0);
    expect(assembler.result().toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['now', '{}'],
      ['now', '{}'],
    ]);
  });

  it('still joins a name sent again with a piece of arguments (servers that repeat the name)', () => {
    const assembler = new ChatAssembler();
    const a = addWithoutIndex(assembler, 0, 'weather', '');
    const b = addWithoutIndex(assembler, a.index, 'weather', '{"city":');
    const c = addWithoutIndex(assembler, b.index, 'weather', '"Kyiv"}');
    expect([a.call, b.call, c.call]).toEqual([0, 0, 0]);
    assembler.setFinish('tool_calls', 0);
    expect(assembler.result().toolCalls).toEqual([
      expect.objectContaining({ name: 'weather', arguments: '{"city":"Kyiv"}' }),
    ]);
  });

  it("takes the server's id from a later piece of a call whose first piece had none", () => {
    const assembler = new ChatAssembler();
    const first = assembler.addToolCallDelta(0, undefined, 'w', '');
    expect(first.id).toMatch(/^call_0_0_[0-9a-f]{12}$/);
    const later = assembler.addToolCallDelta(0, 'srv_1', undefined, '{"c":1}');
    expect(later).toEqual({ call: 0, id: 'srv_1', first: false });
    assembler.setFinish('tool_calls', 0);
    expect(assembler.result().toolCalls).toEqual([
      { id: 'srv_1', name: 'w', arguments: '{"c":1}' },
    ]);
  });

  it("keeps the first id when a later piece brings another (Poolside) or an earlier call's", () => {
    const assembler = new ChatAssembler();
    assembler.addToolCallDelta(0, 'a', 'w', '{}');
    assembler.addToolCallDelta(1, undefined, 'w', '');
    expect(assembler.addToolCallDelta(1, 'a', undefined, '{}').id).not.toBe('a');
    expect(assembler.addToolCallDelta(0, 'b', undefined, '').id).toBe('a');
  });
});
