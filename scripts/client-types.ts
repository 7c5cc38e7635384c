// Renders src/sdk/openapi-types.ts from the OpenAPI 3.1 document: one TypeScript type per JSON Schema,
// the operations of /v1 with their parameters, bodies and responses, and a small runtime table (method and
// path per operation, operations per tag) for the typed client. Our own few hundred lines instead of a
// generator dependency: the document uses a small part of JSON Schema (TypeBox's output), listed below.

type Schema = boolean | { [k: string]: unknown };
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface MediaTypes {
  [mediaType: string]: { schema?: Schema };
}
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: MediaTypes };
  responses?: Record<string, { description?: string; content?: MediaTypes }>;
}
export interface OpenApiDoc {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
  webhooks?: Record<string, { post?: Operation }>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (k: string) => (IDENT.test(k) ? k : JSON.stringify(k));
const pad = (n: number) => '  '.repeat(n);
const doc = (text: unknown, n: number) =>
  typeof text === 'string' && text.trim()
    ? `${pad(n)}/** ${text
        .replace(/\*\//g, '*\\/')
        .replace(/\s*\n\s*/g, ' ')
        .trim()} */\n`
    : '';

/** Whether a type needs parentheses inside a union or an intersection: it has a | or & outside braces and quotes. */
function compound(t: string): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if ('{[(<'.includes(c)) depth++;
    else if ('}])>'.includes(c)) depth--;
    else if (depth === 0 && (c === '|' || c === '&')) return true;
  }
  return false;
}
const wrap = (t: string) => (compound(t) ? `(${t})` : t);

/** A JSON Schema as a TypeScript type (TypeBox's subset: type, properties, required, items, enum, const, anyOf/oneOf/allOf, $ref). */
export function typeOf(s: Schema | undefined, n = 0): string {
  if (s === undefined || s === true) return 'unknown';
  if (s === false) return 'never';
  if (typeof s.$ref === 'string') {
    const m = /^#\/components\/schemas\/(.+)$/.exec(s.$ref);
    return m ? `components['schemas'][${JSON.stringify(decodeURIComponent(m[1]!))}]` : 'unknown';
  }
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ') || 'never';
  for (const [k, join] of [
    ['anyOf', ' | '],
    ['oneOf', ' | '],
    ['allOf', ' & '],
  ] as const) {
    if (Array.isArray(s[k])) {
      const parts = [...new Set((s[k] as Schema[]).map((x) => typeOf(x, n)))];
      return parts.length === 1 ? parts[0]! : parts.map(wrap).join(join);
    }
  }
  if (Array.isArray(s.type)) return (s.type as string[]).map((t) => wrap(typeOf({ ...s, type: t }, n))).join(' | ');
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = typeOf(s.items as Schema | undefined, n);
      return compound(item) ? `Array<${item}>` : `${item}[]`;
    }
    case 'object':
      return objectType(s, n);
    default:
      return s.properties ? objectType(s, n) : 'unknown';
  }
}

function objectType(s: { [k: string]: unknown }, n: number): string {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required ?? []) as string[]);
  const extra = s.additionalProperties;
  const names = Object.keys(props);
  if (names.length === 0) {
    if (s.patternProperties)
      return `Record<string, ${[...new Set(Object.values(s.patternProperties as Record<string, Schema>).map((x) => typeOf(x, n)))].join(' | ')}>`;
    return extra === false
      ? 'Record<string, never>'
      : `Record<string, ${typeof extra === 'object' ? typeOf(extra as Schema, n) : 'unknown'}>`;
  }
  const lines = names.map((p) => {
    const ps = props[p]!;
    return `${doc(typeof ps === 'object' ? ps.description : undefined, n + 1)}${pad(n + 1)}${key(p)}${required.has(p) ? '' : '?'}: ${typeOf(ps, n + 1)};\n`;
  });
  return `{\n${lines.join('')}${pad(n)}}`;
}

function paramsType(params: Parameter[], where: string, n: number): string {
  const list = params.filter((p) => p.in === where);
  if (list.length === 0) return 'Record<string, never>';
  return `{\n${list.map((p) => `${doc(p.description ?? (typeof p.schema === 'object' ? p.schema.description : undefined), n + 1)}${pad(n + 1)}${key(p.name)}${p.required ? '' : '?'}: ${typeOf(p.schema, n + 1)};\n`).join('')}${pad(n)}}`;
}

function contentType(content: MediaTypes | undefined, n: number): string {
  if (!content || Object.keys(content).length === 0) return 'undefined';
  const json = Object.entries(content).find(([t]) => /json/.test(t));
  if (json) return typeOf(json[1].schema, n);
  if (content['multipart/form-data']) return 'FormData';
  return 'ArrayBuffer';
}

export interface OperationInfo {
  id: string;
  method: string;
  path: string;
  tag: string;
}

/** The /v1 operations of the document, in its order. */
export function operationsOf(d: OpenApiDoc): { info: OperationInfo; op: Operation }[] {
  const out: { info: OperationInfo; op: Operation }[] = [];
  for (const [path, item] of Object.entries(d.paths ?? {})) {
    if (!path.startsWith('/v1/')) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      out.push({ info: { id: op.operationId, method: method.toUpperCase(), path, tag: op.tags?.[0] ?? 'Other' }, op });
    }
  }
  return out;
}

/** 'API keys' → apiKeys, 'Travel Rule' → travelRule. */
export function namespaceOf(tag: string): string {
  const words = tag
    .replace(/\(.*?\)/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join('');
}

export function renderClientTypes(d: OpenApiDoc): string {
  const ops = operationsOf(d);
  let out = `// Generated by scripts/generate-client-types.ts from the app's OpenAPI document (GET /openapi.json).
// Do not edit: change the route schemas and run \`npx tsx scripts/generate-client-types.ts\`.
// test/docs/client-types.test.ts fails when this file and the app's schemas differ.

export interface components {
  schemas: {
`;
  for (const [name, s] of Object.entries(d.components?.schemas ?? {})) out += `    ${key(name)}: ${typeOf(s, 2)};\n`;
  out += `  };\n}\n\n/** Every /v1 operation: method, path, parameters, body, responses by status, and the success body. */\nexport interface operations {\n`;
  for (const { info, op } of ops) {
    const params = op.parameters ?? [];
    const responses = Object.entries(op.responses ?? {});
    const success = responses
      .filter(([s]) => /^2\d\d$/.test(s))
      .map(([s]) => `operations[${JSON.stringify(info.id)}]['responses'][${JSON.stringify(s)}]`);
    const body = op.requestBody?.content ? contentType(op.requestBody.content, 2) : 'never';
    out += doc(op.summary, 1);
    out += `  ${key(info.id)}: {\n`;
    out += `    method: ${JSON.stringify(info.method)};\n    path: ${JSON.stringify(info.path)};\n`;
    out += `    pathParams: ${paramsType(params, 'path', 2)};\n`;
    out += `    query: ${paramsType(params, 'query', 2)};\n`;
    out += `    body: ${body};\n    bodyRequired: ${op.requestBody?.required ? 'true' : 'false'};\n`;
    out += `    responses: {\n${responses.map(([s, r]) => `      ${key(s)}: ${contentType(r.content, 3)};\n`).join('')}    };\n`;
    out += `    success: ${[...new Set(success)].join(' | ') || 'undefined'};\n  };\n`;
  }
  out += `}\n\nexport type OperationId = keyof operations;\n\n/** Operation ids by path and method. */\nexport interface paths {\n`;
  const byPath = new Map<string, OperationInfo[]>();
  for (const { info } of ops) byPath.set(info.path, [...(byPath.get(info.path) ?? []), info]);
  for (const [path, infos] of byPath)
    out += `  ${JSON.stringify(path)}: { ${infos.map((i) => `${i.method}: ${JSON.stringify(i.id)}`).join('; ')} };\n`;
  out += `}\n\n/** Method and path of each operation (the client's runtime table). */\nexport const OPERATIONS = {\n`;
  for (const { info } of ops) out += `  ${key(info.id)}: { method: ${JSON.stringify(info.method)}, path: ${JSON.stringify(info.path)} },\n`;
  out += `} as const satisfies Record<OperationId, { method: string; path: string }>;\n\n/** Operations by the namespace of their first tag ('API keys' → apiKeys). */\nexport const NAMESPACES = {\n`;
  const byNs = new Map<string, string[]>();
  for (const { info } of ops) byNs.set(namespaceOf(info.tag), [...(byNs.get(namespaceOf(info.tag)) ?? []), info.id]);
  for (const [ns, ids] of byNs) out += `  ${key(ns)}: [${ids.map((i) => JSON.stringify(i)).join(', ')}],\n`;
  out += `} as const;\n\n/** The signed body of each webhook event type, as a receiver gets it (verify it with verity/webhooks). */\nexport interface events {\n`;
  for (const [type, item] of Object.entries(d.webhooks ?? {})) {
    out += `  ${key(type)}: ${contentType(item.post?.requestBody?.content, 1)};\n`;
  }
  out += '}\n';
  return out;
}
