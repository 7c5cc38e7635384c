import { section, vars, Var, type SectionValue } from '../../platform/config-schema.js';

/**
 * The businesses module's settings (its door for the configuration loader; imports nothing heavy).
 * The live registry APIs are off unless enabled: the offline imports are the default and need no network.
 */
export const businessesConfig = section(
  vars({
    /** Ask GLEIF's API (api.gleif.org) in searches and when creating a record of an LEI not imported. */
    gleifApiEnabled: Var.bool('KYB_GLEIF_API_ENABLED', false),
    gleifApiUrl: Var.url('KYB_GLEIF_API_URL', ['https:', 'http:']),
    /** Calls a minute to GLEIF's API (GLEIF asks for at most 60). */
    gleifApiPerMinute: Var.int('KYB_GLEIF_API_PER_MINUTE', 60, 1, 6000),
    /** Direct parents followed upwards when an LEI is fetched (1: the direct parent only; each level one more call pair). */
    gleifApiParentDepth: Var.int('KYB_GLEIF_API_PARENT_DEPTH', 3, 1, 10),
    /** Ask the Companies House Public Data API in searches and when creating a record not imported. */
    companiesHouseApiEnabled: Var.bool('KYB_COMPANIES_HOUSE_API_ENABLED', false),
    companiesHouseApiUrl: Var.url('KYB_COMPANIES_HOUSE_API_URL', ['https:', 'http:']),
    /** The Companies House API key (sent as the basic-auth user; never logged or echoed). */
    companiesHouseApiKey: Var.text('KYB_COMPANIES_HOUSE_API_KEY', {
      secret: true,
      pattern: '^\\S{8,200}$',
      hint: 'must be the API key (8-200 characters, no spaces)',
    }),
    /** Calls a minute to Companies House (it allows 600 per 5 minutes per key). */
    companiesHouseApiPerMinute: Var.int('KYB_COMPANIES_HOUSE_API_PER_MINUTE', 120, 1, 6000),
    /** Levels of PSCs read when a company is fetched (1: its own PSCs; 2: also those of its UK corporate PSCs; …). */
    companiesHouseApiPscDepth: Var.int('KYB_COMPANIES_HOUSE_API_PSC_DEPTH', 2, 1, 10),
    /** Time limit of one live lookup (a search's live part, or the fetch at creation), in ms. */
    liveTimeoutMs: Var.int('KYB_LIVE_TIMEOUT_MS', 5000, 100, 60_000),
    /** Let the live adapters reach loopback and private addresses (a registry mirror inside your network; tests). */
    liveAllowPrivateNetworks: Var.bool('KYB_LIVE_ALLOW_PRIVATE_NETWORKS', false),
  }),
  (v, problems) => {
    if (v.companiesHouseApiEnabled && !v.companiesHouseApiKey)
      problems.push('KYB_COMPANIES_HOUSE_API_KEY is required when KYB_COMPANIES_HOUSE_API_ENABLED is true');
    return {
      timeoutMs: v.liveTimeoutMs,
      allowPrivateNetworks: v.liveAllowPrivateNetworks,
      gleif: v.gleifApiEnabled
        ? { baseUrl: v.gleifApiUrl ?? 'https://api.gleif.org/api/v1', perMinute: v.gleifApiPerMinute, parentDepth: v.gleifApiParentDepth }
        : null,
      companiesHouse:
        v.companiesHouseApiEnabled && v.companiesHouseApiKey
          ? {
              baseUrl: v.companiesHouseApiUrl ?? 'https://api.company-information.service.gov.uk',
              perMinute: v.companiesHouseApiPerMinute,
              apiKey: v.companiesHouseApiKey,
              pscDepth: v.companiesHouseApiPscDepth,
            }
          : null,
    };
  },
);

export type BusinessesConfig = SectionValue<typeof businessesConfig>;
