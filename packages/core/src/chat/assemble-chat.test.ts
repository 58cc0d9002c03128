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
