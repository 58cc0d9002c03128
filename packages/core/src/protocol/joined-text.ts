// docs/gateway-protocol.md §4.1 (a message's text parts sent as one string).

/**
 * A message's text parts sent as one string: a line apart, as a server that joins the parts it is
 * sent keeps them apart (`["What is", "2+2?"]` reads "What is\n2+2?", never "What is2+2?"). Not for
 * an assistant's text: its parts are the pieces of one answer, split where its stream turned to
 * reasoning or a tool call, and are joined as they are.
 */
export function joinTextParts(texts: readonly string[]): string {
  return texts.join('\n');
}
