import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { EvidenceMediaInfo, SessionEvidence } from './evidence.js';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const FOOTER = 30;

/** Helvetica (WinAnsi) cannot draw every character: keep Latin-1, replace the rest. */
export function winAnsi(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

/** Splits text into lines that fit `width` at `size`, breaking over-long words too. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  for (const word of winAnsi(text).split(' ')) {
    let w = word;
    const candidate = line ? `${line} ${w}` : w;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    while (!fits(w)) {
      let n = w.length - 1;
      while (n > 1 && !fits(w.slice(0, n))) n--;
      lines.push(w.slice(0, n));
      w = w.slice(n);
    }
    line = w;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

class Writer {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private doc: PDFDocument,
    private font: PDFFont,
    private bold: PDFFont,
  ) {
    this.newPage();
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  private room(h: number) {
    if (this.y - h < MARGIN + FOOTER) this.newPage();
  }
  text(s: string, o: { size?: number; bold?: boolean; indent?: number; color?: [number, number, number] } = {}) {
    const size = o.size ?? 10;
    const font = o.bold ? this.bold : this.font;
    const x = MARGIN + (o.indent ?? 0);
    for (const line of wrap(s, font, size, A4[0] - MARGIN - x)) {
      this.room(size * 1.35);
      this.y -= size * 1.35;
      this.page.drawText(line, { x, y: this.y, size, font, color: rgb(...(o.color ?? [0, 0, 0])) });
    }
  }
  heading(s: string) {
    this.room(40);
    this.y -= 10;
    this.text(s, { size: 13, bold: true, color: [0.1, 0.2, 0.45] });
    this.y -= 3;
  }
  field(label: string, value: string) {
    this.text(`${label}: ${value}`, { indent: 0 });
  }
  gap(h = 6) {
    this.y -= h;
  }
}

const show = (v: unknown): string => {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
};

/** The main signals of a check: its signals array as name = value (the first 12), else its reasons. */
function signalLines(signals: unknown): string[] {
  if (!Array.isArray(signals)) return [];
  return signals.slice(0, 12).map((sig) => {
    if (sig && typeof sig === 'object') {
      const o = sig as Record<string, unknown>;
      const name = o.name ?? o.type ?? o.code ?? o.key;
      const value = o.value ?? o.score ?? o.result ?? o.status;
      if (name !== undefined) return `${show(name)} = ${show(value)}${o.detail ? ` (${show(o.detail)})` : ''}`;
    }
    return show(sig);
  });
}

/**
 * The compliance report of one session as a PDF: subject, journey, status, decision, risk, reason
 * codes, every check with its status and main signals, the transition trail, and page numbers.
 */
export async function renderReport(e: SessionEvidence<EvidenceMediaInfo>, generatedAt: Date): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const s = e.session;
  doc.setTitle(`Verification report ${s.id}`);
  doc.setAuthor('Verity');
  doc.setCreationDate(generatedAt);
  doc.setModificationDate(generatedAt);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const w = new Writer(doc, font, bold);

  w.text('Verification report', { size: 18, bold: true });
  w.text(`Session ${s.id} - generated ${generatedAt.toISOString()}`, { size: 9, color: [0.35, 0.35, 0.35] });

  w.heading('Subject');
  w.field('Type', s.subject.type);
  w.field('Reference', show(s.subject.reference));
  w.field('Country', show(s.subject.country));

  w.heading('Session');
  w.field('Journey', `${s.journey} (version ${s.journey_version})`);
  if (s.imported_from)
    w.field(
      'Origin',
      `Imported from ${s.imported_from.provider} (${s.imported_from.external_id})${s.imported_from.journey ? `, journey ${s.imported_from.journey}` : ''}`,
    );
  w.field('Status', s.status);
  w.field('Created', s.created_at);
  w.field('Expires', s.expires_at);
  w.field('Completed', show(s.completed_at));
  if (s.sandbox_outcome) w.field('Sandbox outcome', s.sandbox_outcome);

  w.heading('Decision');
  const d = e.decision;
  w.field('Decision', d ? d.decision : 'none yet');
  w.field('Risk score', d ? `${d.risk.score} (band ${d.risk.band})` : s.risk ? `${s.risk.score} (band ${s.risk.band})` : '-');
  w.field('Reason codes', (d?.reason_codes ?? s.reason_codes).join(', ') || 'none');
  if (d) {
    w.field('Decided by', show(d.decided_by));
    w.field('Decided at', show(d.decided_at));
    if (d.decided_reason) w.field('Reviewer reason', d.decided_reason);
  }

  w.heading('Checks');
  if (e.checks.length === 0) w.text('No checks.');
  for (const c of e.checks) {
    w.gap(2);
    w.text(`${c.type} - ${c.status}${c.score === null ? '' : ` (score ${c.score})`}`, { bold: true });
    w.text(`Check ${c.id}; completed ${show(c.completed_at)}`, { indent: 12, size: 9, color: [0.35, 0.35, 0.35] });
    if (c.reasons.length) w.text(`Reasons: ${c.reasons.join(', ')}`, { indent: 12 });
    const sig = signalLines(c.signals);
    if (sig.length) for (const line of sig) w.text(`- ${line}`, { indent: 12, size: 9 });
    else w.text('No signals recorded.', { indent: 12, size: 9 });
  }
  if (e.media.length) {
    w.heading('Media');
    for (const m of e.media) w.text(`${m.id} - ${m.kind}, ${m.content_type}, ${m.bytes} bytes, SHA-256 ${m.sha256}`, { size: 9 });
  }

  w.heading('Transition trail');
  for (const t of s.transitions) w.text(`${t.at}  ${t.from} -> ${t.to}  (${t.event}, by ${t.actor})`, { size: 9 });

  const pages = doc.getPages();
  pages.forEach((p, i) => {
    const label = `${s.id} - page ${i + 1} of ${pages.length}`;
    p.drawText(label, { x: A4[0] - MARGIN - font.widthOfTextAtSize(label, 8), y: FOOTER - 10, size: 8, font, color: rgb(0.4, 0.4, 0.4) });
  });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
