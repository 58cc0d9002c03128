// docs/gateway-protocol.md §2.3 (the key goes into no header but `authorization`, and into no
// message): what leaves a session's transport holds no gateway key.
import { redactKey, redactValue } from '@infergate/core/internal';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * `message` with the API key of every live gateway client redacted (core's redactor, every form
 * it knows) from every string and property name in it, at any depth: results, errors and
 * notifications alike, the MCP SDK's own words too (`Tool <name> not found`, `Resource <uri> not
 * found` echo what the caller sent); only the ids it is matched by are left. A message is JSON, so an object it holds twice (a schema two
 * tools share) is copied both times. A string without the key is kept as it is, not copied: a large
 * answer costs a scan of its text per live key, not a copy.
 */
export function redactOutgoing(message: JSONRPCMessage): JSONRPCMessage {
  const out = redactValue(message, (text) => redactKey(text), true) as Record<string, unknown>;
  // The ids the other side matches messages by are its own, sent back as they came (a transport
  // routes an answer by its id): a request's id, a progress token, a cancelled request's id.
  if ('id' in message) out.id = message.id;
  const params = 'params' in message ? message.params : undefined;
  if (params !== undefined) {
    const copied = out.params as Record<string, unknown>;
    for (const name of ['progressToken', 'requestId']) {
      if (Object.hasOwn(params, name)) copied[name] = params[name];
    }
  }
  return out as JSONRPCMessage;
}

/**
 * `transport` seen through a view whose `send` redacts each message first (redactOutgoing): the one
 * place every message of a session leaves by, whichever transport (stdio, Streamable HTTP,
 * in-memory) and whoever wrote the message. Everything else — handlers the SDK sets, `sessionId`,
 * `start`, `close` — reads and writes the transport itself, which stays the caller's, unchanged.
 */
export function redactingTransport(transport: Transport): Transport {
  const send: Transport['send'] = (message, options) =>
    transport.send(redactOutgoing(message), options);
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'send') return send;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set: (target, property, value) => Reflect.set(target, property, value, target),
  });
}
