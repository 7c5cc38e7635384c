// Word lists used by normalisation. Honorifics are dropped; legal forms and particles are kept but
// carry little weight, because "ACME LTD" and "ACME INC" are the same name for screening purposes
// while "ACME" against "APEX LTD" must not pass on the strength of "LTD".

export const HONORIFICS: ReadonlySet<string> = new Set([
  'mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'professor', 'sir', 'dame', 'lord', 'lady', 'sheikh', 'shaykh',
  'sheik', 'shaikh', 'mullah', 'mulla', 'maulana', 'maulvi', 'mawlawi', 'imam', 'general', 'gen', 'col', 'colonel',
  'capt', 'captain', 'major', 'maj', 'lt', 'lieutenant', 'sgt', 'sergeant', 'rev', 'reverend', 'hon', 'honourable',
  'honorable', 'excellency', 'herr', 'frau', 'mme', 'mlle', 'monsieur', 'madame', 'senor', 'senora', 'sra',
  'srta', 'dona', 'engineer', 'eng', 'ing', 'dipl', 'president', 'minister', 'ayatollah', 'emir', 'prince', 'princess',
]);

/** Legal-form spellings mapped to one canonical token, multi-word forms first. */
export const LEGAL_FORM_PHRASES: ReadonlyArray<[string, string]> = [
  ['obshchestvo s ogranichennoy otvetstvennostyu', 'llc'],
  ['gesellschaft mit beschrankter haftung', 'gmbh'],
  ['societatea cu raspundere limitata', 'srl'],
  ['spolka z ograniczona odpowiedzialnoscia', 'llc'],
  ['tovarystvo z obmezhenoyu vidpovidalnistyu', 'llc'],
  ['sp z o o', 'llc'],
  ['aktiengesellschaft', 'ag'],
  ['obshchestvo s ogranichennoi otvetstvennostyu', 'llc'],
  ['limited liability company', 'llc'],
  ['limited liability partnership', 'llp'],
  ['public joint stock company', 'pjsc'],
  ['open joint stock company', 'ojsc'],
  ['closed joint stock company', 'cjsc'],
  ['joint stock company', 'jsc'],
  ['publichnoe aktsionernoe obshchestvo', 'pjsc'],
  ['aktsionernoe obshchestvo', 'jsc'],
  ['public limited company', 'plc'],
  ['private limited company', 'ltd'],
  ['private limited', 'ltd'],
  ['sociedad anonima de capital variable', 'sa'],
  ['sociedad de responsabilidad limitada', 'srl'],
  ['sociedad anonima', 'sa'],
  ['societe anonyme', 'sa'],
  ['sdn bhd', 'sdnbhd'],
  ['s de rl de cv', 'srl'],
  ['s de rl', 'srl'],
  ['sa de cv', 'sa'],
  ['de cv', ''],
  ['co ltd', 'ltd'],
  ['s a', 'sa'],
  ['s r l', 'srl'],
  ['s p a', 'spa'],
  ['b v', 'bv'],
  ['n v', 'nv'],
];

// A prototype-free object: tokens come from names, and "constructor" or "__proto__" must not find
// Object.prototype's members.
const LEGAL_FORM_SINGLE: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  limited: 'ltd', ltd: 'ltd', llc: 'llc', inc: 'inc', incorporated: 'inc', corp: 'corp', corporation: 'corp',
  co: 'co', company: 'co', plc: 'plc', gmbh: 'gmbh', ag: 'ag', sa: 'sa', sarl: 'sarl', srl: 'srl', spa: 'spa',
  bv: 'bv', nv: 'nv', oy: 'oy', ab: 'ab', asa: 'asa', kft: 'kft', zao: 'cjsc', ooo: 'llc', oao: 'ojsc', pao: 'pjsc',
  ao: 'jsc', jsc: 'jsc', ojsc: 'ojsc', cjsc: 'cjsc', pjsc: 'pjsc', llp: 'llp', lp: 'lp', pte: 'pte', pty: 'pty',
  bhd: 'bhd', sdnbhd: 'sdnbhd', fzc: 'fzc', fze: 'fze', fzco: 'fzco', fzllc: 'llc', dmcc: 'dmcc', sal: 'sal',
  sae: 'sae', tov: 'llc', dooel: 'llc', doo: 'llc', sro: 'sro', spzoo: 'llc', kg: 'kg', ohg: 'ohg', ug: 'ug',
  est: 'est', establishment: 'est', cia: 'co', cie: 'co', ltda: 'ltd', lda: 'ltd', eirl: 'eirl', as: 'as',
  group: 'group', holding: 'holding', holdings: 'holding',
});

// Words of spelled-out legal forms. When a phrase is reordered or misspelt it is no longer caught as a
// phrase, but its words must still weigh as little as the phrase would have.
const LEGAL_WORDS = [
  'obshchestvo', 'ogranichennoy', 'ogranichennoi', 'otvetstvennostyu', 'aktsionernoe', 'aktsionernoye', 'zakrytoe',
  'otkrytoe', 'publichnoe', 'joint', 'stock', 'liability', 'closed', 'public', 'sociedad', 'anonima', 'responsabilidad',
  'limitada', 'gesellschaft', 'beschrankter', 'haftung', 'societatea', 'raspundere', 'limitata', 'tovarystvo',
  'obmezhenoyu', 'vidpovidalnistyu', 'incorporated', 'corporation', 'company', 'limited', 'aktiengesellschaft',
];
for (const w of LEGAL_WORDS) LEGAL_FORM_SINGLE[w] ??= w;
const LONG_LEGAL = Object.keys(LEGAL_FORM_SINGLE).filter((w) => w.length >= 6);

export function legalForm(token: string): string | undefined {
  const exact = LEGAL_FORM_SINGLE[token];
  if (exact !== undefined || token.length < 6) return exact;
  // One typo in a long legal word ("COMnANY") still names the legal form.
  for (const w of LONG_LEGAL) if (Math.abs(w.length - token.length) <= 1 && withinOneEdit(w, token)) return LEGAL_FORM_SINGLE[w];
  return undefined;
}

export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length, lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    // Two neighbouring letters swapped ("Asasd"/"Assad") is one slip of the keyboard too.
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Short connecting words that say little about identity. */
export const PARTICLES: ReadonlySet<string> = new Set([
  'the', 'of', 'and', 'for', 'de', 'del', 'della', 'der', 'den', 'des', 'di', 'da', 'do', 'dos', 'du', 'la', 'le',
  'les', 'el', 'al', 'ul', 'ur', 'bin', 'ibn', 'bint', 'ben', 'van', 'von', 'y', 'e', 'et', 'und', 'i', 'a', 'an',
]);

// Common given-name variants, grouped; matching within a group is treated as a near-exact token match.
const NICKNAME_GROUPS: string[][] = [
  ['john', 'jon', 'johnny', 'jonathan', 'ivan', 'juan', 'johann', 'johannes', 'jan', 'sean', 'shawn', 'ian', 'giovanni', 'hans'],
  ['william', 'bill', 'billy', 'will', 'willy', 'wilhelm', 'guillermo'],
  ['robert', 'bob', 'bobby', 'rob', 'robbie', 'roberto'],
  ['richard', 'rick', 'dick', 'ricky', 'ricardo'],
  ['james', 'jim', 'jimmy', 'jamie', 'diego', 'jaime'],
  ['michael', 'mike', 'mikhail', 'miguel', 'michel', 'mikael'],
  ['alexander', 'alex', 'aleksandr', 'alexandr', 'alejandro', 'alessandro', 'sasha', 'alexandre', 'alexandros'],
  ['joseph', 'joe', 'jose', 'josef', 'giuseppe', 'yosef', 'yusuf', 'youssef'],
  ['mohammed', 'muhammad', 'mohamed', 'mohammad', 'muhammed', 'mohamad', 'mehmet', 'mahomed'],
  ['ahmed', 'ahmad', 'akhmed'],
  ['peter', 'pete', 'pyotr', 'pedro', 'pierre', 'pietro', 'petr'],
  ['dmitry', 'dmitri', 'dmitriy', 'dimitri', 'dimitry'],
  ['yuri', 'yury', 'yuriy', 'iouri', 'jurij'],
  ['sergey', 'sergei', 'serguei', 'sergiy'],
  ['andrew', 'andy', 'andrei', 'andrey', 'andres', 'andreas', 'andre'],
  ['nicholas', 'nick', 'nicolas', 'nikolai', 'nikolay', 'nicola', 'niko', 'nikolaos'],
  ['elizabeth', 'liz', 'beth', 'betty', 'elisabeth', 'elisabetta', 'isabel'],
  ['katherine', 'catherine', 'kate', 'kathy', 'ekaterina', 'yekaterina', 'katarina'],
  ['margaret', 'maggie', 'peggy', 'marguerite', 'margarita'],
  ['thomas', 'tom', 'tommy', 'tomas'],
  ['charles', 'charlie', 'chuck', 'carlos', 'karl', 'carl'],
  ['edward', 'ed', 'eddie', 'ted', 'eduardo'],
  ['anthony', 'tony', 'antonio', 'anton'],
  ['daniel', 'dan', 'danny'],
  ['david', 'dave', 'davide', 'dawid'],
  ['steven', 'stephen', 'steve', 'stefan', 'stepan', 'esteban'],
  ['vladimir', 'volodymyr', 'wladimir'],
  ['abdullah', 'abdallah', 'abdulla'],
  ['hussein', 'husain', 'hussain', 'husein', 'hossein'],
  ['osama', 'usama', 'usamah'],
  ['theodore', 'ted', 'teddy', 'theo', 'fyodor', 'fedor', 'teodor', 'teodoro'],
  ['benjamin', 'benny', 'benji', 'binyamin', 'veniamin'],
];

const NICKNAMES = new Map<string, number>();
NICKNAME_GROUPS.forEach((group, i) => group.forEach((n) => NICKNAMES.set(n, i)));

export function sameNameGroup(a: string, b: string): boolean {
  const ga = NICKNAMES.get(a);
  return ga !== undefined && ga === NICKNAMES.get(b);
}
