// A small non-validating XML reader for the list formats (UN, EU FSF, OFAC advanced). The files are
// machine-written, entity-light and namespace-free in practice, so a tree of elements is enough;
// namespace prefixes are stripped so `sdn:Entity` and `Entity` read the same.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e] ?? m;
  });
}

function localName(n: string): string {
  const i = n.indexOf(':');
  return i >= 0 ? n.slice(i + 1) : n;
}

const ATTR_RE = /([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

/** Parses a whole document; throws on unbalanced tags so a truncated download is rejected. */
export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let i = 0;
  const n = xml.length;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) break;
    if (lt > i) stack[stack.length - 1]!.text += decodeEntities(xml.slice(i, lt));
    if (xml.startsWith('<!--', lt)) {
      i = end(xml, '-->', lt) + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const e = end(xml, ']]>', lt);
      stack[stack.length - 1]!.text += xml.slice(lt + 9, e);
      i = e + 3;
      continue;
    }
    if (xml[lt + 1] === '?' || xml[lt + 1] === '!') {
      i = end(xml, '>', lt) + 1;
      continue;
    }
    const gt = end(xml, '>', lt);
    const raw = xml.slice(lt + 1, gt);
    i = gt + 1;
    if (raw[0] === '/') {
      const name = localName(raw.slice(1).trim());
      const top = stack.pop();
      if (!top || top.name !== name) throw new Error(`XML: unexpected </${name}>`);
      continue;
    }
    const selfClosing = raw.endsWith('/');
    const body = selfClosing ? raw.slice(0, -1) : raw;
    const sp = body.search(/\s/);
    const name = localName(sp < 0 ? body : body.slice(0, sp));
    const attrs: Record<string, string> = {};
    if (sp >= 0) {
      for (const m of body.slice(sp).matchAll(ATTR_RE)) attrs[localName(m[1]!)] = decodeEntities(m[3] ?? m[4] ?? '');
    }
    const el: XmlElement = { name, attrs, children: [], text: '' };
    stack[stack.length - 1]!.children.push(el);
    if (!selfClosing) stack.push(el);
  }
  if (stack.length !== 1) throw new Error(`XML: document ended inside <${stack[stack.length - 1]!.name}>`);
  const top = root.children[0];
  if (!top) throw new Error('XML: no root element');
  return top;
}

function end(xml: string, token: string, from: number): number {
  const e = xml.indexOf(token, from);
  if (e < 0) throw new Error('XML: truncated document');
  return e;
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** Trimmed text of a direct child, or undefined when absent or empty. */
export function childText(el: XmlElement | undefined, name: string): string | undefined {
  const t = child(el, name)?.text.trim();
  return t ? t : undefined;
}

/** Every descendant with the given name, depth first. */
export function descendants(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}
