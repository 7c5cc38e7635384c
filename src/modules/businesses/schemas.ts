import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CountryCode, Timestamp } from '../../platform/schemas.js';

const Nullable = <T extends TSchema>(t: T, description?: string) => Type.Union([t, Type.Null()], description ? { description } : {});
const Str = (description: string) => Nullable(Type.String(), description);

export const SOURCES = ['gleif', 'gb_coh', 'bods'] as const;
const Source = Type.Union(
  SOURCES.map((s) => Type.Literal(s)),
  {
    description:
      'Registry source: gleif (LEI Level 1 and 2), gb_coh (UK Companies House and its PSC register), bods (a BODS 0.4 publication).',
  },
);

export const Share = Type.Object(
  {
    exact: Type.Optional(Type.Number()),
    minimum: Type.Optional(Type.Number()),
    exclusive_minimum: Type.Optional(Type.Number()),
    maximum: Type.Optional(Type.Number()),
    exclusive_maximum: Type.Optional(Type.Number()),
  },
  {
    title: 'Share',
    description:
      'A percentage in BODS terms: `exact`, or a range with inclusive (`minimum`/`maximum`) or exclusive (`exclusive_minimum`/`exclusive_maximum`) bounds. A UK PSC band "25 to 50 %" is `exclusive_minimum: 25, maximum: 50`: more than 25 %.',
  },
);

const Address = Type.Object({
  lines: Type.Array(Type.String()),
  city: Type.Optional(Type.String()),
  region: Type.Optional(Type.String()),
  postal_code: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
});

// ---- search ----

export const SearchBusinesses = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        description: 'Business name (any script; legal forms and transliteration are normalised).',
      }),
    ),
    lei: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z]{18}[0-9]{2}$', description: 'Legal Entity Identifier (20 characters).' })),
    registration_number: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Registration or licence number at the register.' }),
    ),
    country: Type.Optional(CountryCode('Only businesses registered in this country (ISO 3166-1 alpha-2).')),
    sources: Type.Optional(Type.Array(Source, { minItems: 1, maxItems: 3, uniqueItems: true })),
    include_inactive: Type.Optional(Type.Boolean({ description: 'Include dissolved, inactive and lapsed records (default false).' })),
    live: Type.Optional(
      Type.Boolean({
        description:
          "Also ask the registries' live APIs the operator enabled (GLEIF, Companies House) for the wanted sources (default true; false: imported data only).",
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: 'next_cursor of the previous page, with the same search.' }),
    ),
  },
  { additionalProperties: false, description: 'At least one of query, lei and registration_number.' },
);
export type SearchBusinesses = Static<typeof SearchBusinesses>;

const RegistryFields = {
  source: Source,
  source_ref: Type.String({ description: 'The record at the source: an LEI, a company number, a BODS recordId.' }),
  name: Type.String(),
  other_names: Type.Array(Type.String()),
  lei: Str('LEI where known.'),
  registration_number: Str('Number at the register.'),
  registration_authority: Str('GLEIF registration authority code (RA…) or the register.'),
  jurisdiction: Str('Jurisdiction of registration.'),
  country: Str('Country of the legal address.'),
  legal_form: Str('Legal form (ELF code for GLEIF, company category for Companies House).'),
  status: Str('Entity status in lower case: active, inactive, dissolved, liquidation, …'),
  registration_status: Str('LEI registration status (ISSUED, LAPSED, RETIRED, …).'),
  incorporation_date: Str('YYYY-MM-DD.'),
  dissolution_date: Str('YYYY-MM-DD.'),
  address: Nullable(Address),
};

export const SearchResult = Type.Object(
  {
    ...RegistryFields,
    match: Type.Object({
      score: Type.Number({ minimum: 0, maximum: 1, description: '1 for an exact LEI or number; otherwise the name similarity.' }),
      matched_on: Type.Array(Type.Union([Type.Literal('lei'), Type.Literal('registration_number'), Type.Literal('name')])),
      matched_name: Str('The name or other name that matched the query.'),
    }),
    origin: Type.Union([Type.Literal('imported'), Type.Literal('live')], {
      description:
        "imported: from an imported registry file; live: from the registry's live API just now (creating a record from it fetches and stores the entry).",
    }),
  },
  { title: 'BusinessSearchResult' },
);
export const SearchPage = Type.Object({
  data: Type.Array(SearchResult),
  next_cursor: Nullable(Type.String()),
  live: Type.Array(
    Type.Object({
      source: Source,
      status: Type.Union([Type.Literal('ok'), Type.Literal('timeout'), Type.Literal('rate_limited'), Type.Literal('unavailable')]),
      results: Type.Integer({ minimum: 0 }),
    }),
    { description: 'The live registry APIs asked for this page and how each answered (empty when none is enabled or live is false).' },
  ),
});

// ---- create ----

export const CreateBusiness = Type.Object(
  {
    source: Type.Optional(Source),
    source_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'source_ref of a search result.' })),
    manual: Type.Optional(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 300 }),
          registration_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          lei: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z]{18}[0-9]{2}$' })),
          country: Type.Optional(CountryCode()),
          legal_form: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          incorporation_date: Type.Optional(Type.String({ format: 'date' })),
        },
        { additionalProperties: false, description: 'A business not found in the imported registries.' },
      ),
    ),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Your own identifier of the business.' })),
    screen: Type.Optional(
      Type.Boolean({
        description: 'Screen the business, its officers and owners at creation (default true); a hit raises business.screening_hit.',
      }),
    ),
  },
  { additionalProperties: false, description: 'Either source and source_ref (a search result) or manual.' },
);
export type CreateBusiness = Static<typeof CreateBusiness>;

// ---- the business ----

const Interest = Type.Object({
  type: Str('BODS interestType (shareholding, votingRights, appointmentOfBoard, otherInfluenceOrControl, trustee, nominee, …).'),
  direct_or_indirect: Type.Union([Type.Literal('direct'), Type.Literal('indirect'), Type.Literal('unknown')]),
  share: Nullable(Share),
  beneficial_ownership_or_control: Nullable(Type.Boolean()),
  start_date: Str('YYYY-MM-DD.'),
  end_date: Str('YYYY-MM-DD.'),
});

export const OwnershipNode = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('entity'), Type.Literal('person'), Type.Literal('unknown')]),
  type: Str('BODS entityType or personType.'),
  name: Str('Name, where known.'),
  unspecified_reason: Str('Why the party is not identified (BODS unspecifiedReason or a GLEIF exception reason).'),
  is_subject: Type.Boolean(),
  source: Type.Optional(
    Str("The register the node's record comes from (the business's own, or another one reached through a same-entity link)."),
  ),
  registration: Type.Optional(
    Nullable(
      Type.Object({
        number: Str('Registration number in its register.'),
        authority: Str('The register: a GLEIF registration-authority code, or the place a PSC says it is registered.'),
        legal_authority: Str("The law it is formed under (a Companies House corporate PSC's legal_authority)."),
        legal_form: Str('Legal form.'),
        jurisdiction: Str('Jurisdiction as the source writes it.'),
        country: Str('ISO 3166-1 alpha-2 country of registration, where known.'),
      }),
      'How an entity node is registered (entities with a registry record; null otherwise).',
    ),
  ),
  same_as: Type.Optional(
    Type.Array(
      Type.Object({
        source: Source,
        source_ref: Type.String(),
        name: Type.String(),
        lei: Str('LEI, where the record has one.'),
      }),
      {
        description:
          'Imported records of other sources with the same registration number in the same country (e.g. a corporate owner registered abroad and its GLEIF record); search by the source and reference to create a business from one.',
      },
    ),
  ),
});
export const SameEntityLink = Type.Object(
  {
    id: Type.String({ description: 'same_as:<from>><to>; appears in UBO paths (edge_ids) where a path crosses registers.' }),
    from: Type.String({ description: "The other register's record, whose owners the graph continues through." }),
    to: Type.String({ description: 'The record without owners in its own register.' }),
    relation: Type.Literal('same_entity'),
    matched_on: Type.Literal('registration_number_and_country'),
    source: Type.String({ description: "The other record's registry source and import batch (source:batch id)." }),
  },
  {
    description:
      'Two records of the same legal entity in two registers, joined where the first has no owners in its own register and the other records some. Not an interest: it carries shares and control across unchanged and is not a level of ownership (max_depth).',
  },
);
export const OwnershipEdge = Type.Object({
  id: Type.String(),
  from: Type.String({ description: 'The interested party (owner).' }),
  to: Type.String({ description: 'The subject (owned).' }),
  interests: Type.Array(Interest),
  is_component: Type.Boolean({ description: 'A hop of a declared indirect relationship.' }),
  component_edge_ids: Type.Array(Type.String()),
  source: Type.String({ description: 'Registry source and import batch (source:batch id).' }),
  statement_id: Str('BODS statementId, where the source is BODS.'),
});

export const PersonVerificationStatus = Type.Object(
  {
    id: Type.String({ description: 'The verification (ses_…): GET /v1/verifications/{id}.' }),
    status: Type.String({
      description: "The verification's status (awaiting_subject, processing, approved, declined, review, expired, …).",
    }),
    decision: Str('approved, declined or referred once decided.'),
    created_at: Timestamp,
  },
  { title: 'BusinessPersonVerification', description: "The person's latest verification session sent for this business." },
);
export type PersonVerificationStatus = Static<typeof PersonVerificationStatus>;
const PersonVerificationField = Nullable(PersonVerificationStatus, 'null until the person is sent through a verification session.');

export const VerifyPerson = Type.Object(
  {
    journey: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The KYC journey to run, published in this environment (its key or jrn_ id).',
    }),
    subject_reference: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Your identifier of the person; default `<business reference or id>:<node_id>`.',
      }),
    ),
    redirect_url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2000,
        pattern: '^https?://',
        description: 'Where the hosted flow sends the person when done.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type VerifyPerson = Static<typeof VerifyPerson>;

export const PersonParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'Business id (biz_…).' }),
  node_id: Type.String({
    minLength: 1,
    maxLength: 300,
    description: "The person's node id in the business's ownership graph (officers[].node_id, ubos owners[].node_id).",
  }),
});

const Officer = Type.Object({
  node_id: Type.String(),
  name: Type.String(),
  role: Type.String({ description: 'psc, beneficial_owner, senior_managing_official, board_member, board_chair, trustee, …' }),
  appointed_on: Str('YYYY-MM-DD.'),
  resigned_on: Str('YYYY-MM-DD.'),
  nationality: Str('As the register gives it.'),
  country_of_residence: Str('As the register gives it.'),
  birth_date: Nullable(
    Type.Object({ year: Type.Integer(), month: Nullable(Type.Integer()) }),
    'Partial date of birth (registers publish year and month only).',
  ),
  verification: PersonVerificationField,
});

const Exception = Type.Object({
  subject: Type.String(),
  category: Type.String({ description: 'GLEIF DIRECT_/ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT, psc_statement or psc_exemption.' }),
  reason: Type.String(),
  start_date: Str('YYYY-MM-DD.'),
  end_date: Str('YYYY-MM-DD.'),
});

const SourceInfo = Type.Object({
  batch_id: Type.String(),
  source: Type.String(),
  file_name: Type.String(),
  publish_date: Str('Publication date the file states.'),
  imported_at: Timestamp,
});

const Exposure = Type.Object({
  listed_ownership: Share,
  ofac_50_percent_rule: Type.Union([Type.Literal('met'), Type.Literal('possible'), Type.Literal('not_met')], {
    description: 'OFAC: owned 50 % or more in the aggregate by listed parties. met: surely; possible: the range reaches 50 %.',
  }),
  controlled_by_listed: Type.Boolean({ description: 'EU/UK style: a listed party holds a control interest or a sure majority.' }),
  contributors: Type.Array(Type.Object({ node_id: Type.String(), ownership: Share, control: Type.Boolean() })),
});
const Status = Type.Union([Type.Literal('no_match'), Type.Literal('potential_match'), Type.Literal('match'), Type.Literal('unavailable')]);
export const BusinessScreening = Type.Object(
  {
    screened_at: Timestamp,
    status: Status,
    parties: Type.Array(
      Type.Object({
        node_id: Type.String(),
        name: Type.String(),
        kind: Type.Union([Type.Literal('entity'), Type.Literal('person')]),
        status: Status,
        score: Type.Number(),
        hits: Type.Array(
          Type.Object({
            entity_id: Type.String(),
            source: Type.String(),
            names: Type.Array(Type.String()),
            datasets: Type.Array(Type.String()),
            score: Type.Number(),
          }),
        ),
      }),
    ),
    sanctions_exposure: Exposure,
    sanctions_exposure_if_potential_confirmed: Exposure,
  },
  {
    description:
      'Screening of the business and every named party of its ownership graph at creation (unavailable: no list is imported for this environment), and sanctions exposure through ownership, computed over confirmed matches and, as the worst case, over potential matches too.',
  },
);

export const Business = Type.Object(
  {
    id: Type.String({ description: 'biz_…' }),
    object: Type.Literal('business'),
    reference: Str('Your own identifier.'),
    ...RegistryFields,
    source: Type.Union([Source, Type.Literal('manual')]),
    officers: Type.Array(Officer),
    ownership: Type.Object({
      nodes: Type.Array(OwnershipNode),
      edges: Type.Array(OwnershipEdge),
      links: Type.Optional(Type.Array(SameEntityLink)),
      exceptions: Type.Array(Exception),
      truncated: Type.Boolean({ description: 'The graph was larger than the load bound and is cut.' }),
    }),
    sources: Type.Array(SourceInfo),
    screening: Type.Union([BusinessScreening, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Business' },
);
export type Business = Static<typeof Business>;

// ---- ubos ----

export const UbosQuery = Type.Object(
  {
    threshold: Type.Optional(
      Type.Number({ minimum: 0, maximum: 100, default: 25, description: 'Percent; a person qualifies with more than this.' }),
    ),
    basis: Type.Optional(
      Type.Union([Type.Literal('ownership'), Type.Literal('voting'), Type.Literal('control'), Type.Literal('any')], { default: 'any' }),
    ),
    as_of: Type.Optional(Type.String({ format: 'date', description: 'Resolve as of this day (YYYY-MM-DD); default today.' })),
    max_depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 12, default: 10 })),
  },
  { additionalProperties: false },
);
export type UbosQuery = Static<typeof UbosQuery>;

const Path = Type.Object({
  node_ids: Type.Array(Type.String(), { description: 'From the person to the business.' }),
  edge_ids: Type.Array(Type.String()),
  ownership: Share,
  voting: Share,
  control: Type.Boolean(),
});

export const Ubos = Type.Object(
  {
    business_id: Type.String(),
    threshold: Type.Number(),
    basis: Type.String(),
    as_of: Type.String(),
    max_depth: Type.Integer(),
    owners: Type.Array(
      Type.Object({
        node_id: Type.String(),
        name: Str('Name.'),
        ownership: Share,
        voting: Share,
        control: Type.Array(Type.String(), { description: 'Control interest types held.' }),
        figure_basis: Type.Union([Type.Literal('declared'), Type.Literal('computed')], {
          description:
            'declared: the register states the person-to-business relationship (BODS primary relationship); computed: multiplied along the paths.',
        }),
        computed_ownership: Share,
        qualifies: Type.Boolean(),
        possibly_qualifies: Type.Boolean({ description: 'Not surely above the threshold, but the range reaches above it.' }),
        reasons: Type.Array(Type.String({ description: 'ownership_gt_threshold, voting_gt_threshold, control' })),
        paths: Type.Array(Path),
        verification: PersonVerificationField,
      }),
    ),
    unresolved: Type.Array(
      Type.Object({
        node_id: Type.String(),
        name: Str('Name or description.'),
        reason: Type.String({ description: 'unknown_person, exempt, no_known_person, non_public, missing_share, depth_limit, state' }),
        detail: Str('The source reason.'),
        ownership: Nullable(Share),
      }),
    ),
    cycles: Type.Array(Type.Array(Type.String())),
    senior_managing_officials: Type.Array(Type.Object({ node_id: Type.String(), name: Str('Name.') }), {
      description: 'Fallback when no one qualifies: the senior managing officials on record.',
    }),
  },
  { title: 'BusinessUbos' },
);
export type Ubos = Static<typeof Ubos>;

// ---- documents ----

export const DOCUMENT_TYPES = [
  'certificate_of_incorporation',
  'articles_of_association',
  'register_of_members',
  'certificate_of_good_standing',
  'confirmation_statement',
  'financial_statements',
  'proof_of_business_address',
] as const;

export const AttachDocument = Type.Object(
  {
    file: Type.String({
      minLength: 1,
      description:
        'The document: PDF, JPEG, PNG, WebP or TIFF, base64 (or a data: URL) in JSON, or a file in multipart/form-data; at most 15 MiB.',
    }),
    declared_type: Type.Optional(
      Type.Union(
        DOCUMENT_TYPES.map((t) => Type.Literal(t)),
        { description: 'What you believe the document is; checked, not trusted.' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AttachDocument = Static<typeof AttachDocument>;

export const BusinessDocument = Type.Object(
  {
    id: Type.String({ description: 'bdoc_…' }),
    object: Type.Literal('business_document'),
    business_id: Type.String(),
    status: Type.Union([Type.Literal('verified'), Type.Literal('needs_review')], {
      description:
        'verified: classified with confidence, name and number agree with the record, no tamper signal; otherwise needs_review with reasons.',
    }),
    reasons: Type.Array(Type.String()),
    type: Str('Document type (see declared_type), null when unrecognised.'),
    category: Str(
      'proof_of_registration, constitution, proof_of_ownership, proof_of_good_standing, annual_filing, financial_information, proof_of_address.',
    ),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    declared_type: Str('As declared.'),
    content_type: Type.String(),
    extracted: Type.Object({ company_name: Str('As printed.'), company_number: Str('As printed.'), document_date: Str('YYYY-MM-DD.') }),
    cross_checks: Type.Object({
      name_matches_record: Nullable(Type.Boolean(), 'null when no name was found.'),
      number_matches_record: Nullable(Type.Boolean(), 'null when the document or the record has no number.'),
      date_not_in_future: Nullable(Type.Boolean()),
      name_score: Nullable(Type.Number()),
    }),
    tampering: Type.Array(Type.Object({ name: Type.String(), passed: Nullable(Type.Boolean()), detail: Str('Why.') })),
    text_source: Type.String({ description: 'Where the text came from: the PDF text layer or OCR.' }),
    created_at: Timestamp,
  },
  { title: 'BusinessDocument' },
);
export type BusinessDocument = Static<typeof BusinessDocument>;
