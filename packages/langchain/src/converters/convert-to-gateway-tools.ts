// docs/gateway-protocol.md §4.1 (`tools`: function tools).
import type { ChatTool } from '@infergate/core';
import { invalidRequest } from '@infergate/core/internal';
import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import { convertToOpenAITool, isLangChainTool } from '@langchain/core/utils/function_calling';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { isSerializableSchema } from '@langchain/core/utils/standard_schema';
import { isInteropZodSchema } from '@langchain/core/utils/types';

type JsonObject = Record<string, unknown>;

/**
 * Anything `bindTools` accepts → gateway function tools: LangChain tools, RunnableToolLike,
 * `{ name, schema }`, OpenAI-format tools, function definitions, and zod / JSON schemas (named by
 * their `title`).
 */
export function convertToGatewayTools(
  tools: readonly BindToolsInput[],
  options: { strict?: boolean } = {},
): ChatTool[] {
  const converted = tools.map((tool, index) => convertTool(tool, index));
  const seen = new Set<string>();
  for (const [index, tool] of converted.entries()) {
    if (seen.has(tool.function.name)) {
      throw invalidRequest(`tools[${index}]`, `two tools are named "${tool.function.name}"`);
    }
    seen.add(tool.function.name);
    if (options.strict !== undefined) tool.function.strict = options.strict;
  }
  return converted;
}

function convertTool(tool: BindToolsInput, index: number): ChatTool {
  if (isLangChainTool(tool)) return copyTool(convertToOpenAITool(tool) as unknown as ChatTool);
  const value = tool as JsonObject;
  if (value.type === 'function' && isObject(value.function)) return copyTool(value as ChatTool);
  if (isInteropZodSchema(tool) || isSerializableSchema(tool)) {
    return fromJsonSchema(toJsonSchema(tool) as JsonObject, index);
  }
  if (typeof value.name === 'string' && isObject(value.parameters)) {
    return {
      type: 'function',
      function: {
        name: value.name,
        ...(typeof value.description === 'string' ? { description: value.description } : {}),
        parameters: value.parameters,
        ...(typeof value.strict === 'boolean' ? { strict: value.strict } : {}),
      },
    };
  }
  if (isObject(value) && (value.type === 'object' || isObject(value.properties))) {
    return fromJsonSchema(value, index);
  }
  throw invalidRequest(
    `tools[${index}]`,
    'not a tool: pass a LangChain tool, an OpenAI-format tool ({ type: "function", function }), ' +
      '{ name, description, schema } or a zod / JSON schema with a title',
  );
}

function fromJsonSchema(schema: JsonObject, index: number): ChatTool {
  const { title, description, $schema: _ignored, ...parameters } = schema;
  if (typeof title !== 'string' || title === '') {
    throw invalidRequest(
      `tools[${index}]`,
      'a schema used as a tool needs a name: give it a title (zod: .meta({ title })) or pass { name, schema }',
    );
  }
  return {
    type: 'function',
    function: {
      name: title,
      ...(typeof description === 'string' ? { description } : {}),
      parameters,
    },
  };
}

/**
 * A copy, so that setting `strict` never changes the caller's object. The parameters lose their
 * `$schema` (zod's JSON schema names its draft), as the schema and title forms do: the function
 * parameters are a schema body, not a schema document.
 */
function copyTool(tool: ChatTool): ChatTool {
  const { parameters } = tool.function;
  const fn = { ...tool.function };
  if (isObject(parameters) && '$schema' in parameters) {
    const { $schema: _draft, ...rest } = parameters;
    fn.parameters = rest;
  }
  return { ...tool, type: 'function', function: fn };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
