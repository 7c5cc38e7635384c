// Registry file formats, one entry per format; each source's parser lives in its own file.
import { bodsFormats } from './bods.js';
import { companiesHouseFormats } from './companies-house.js';
import { gleifFormats } from './gleif.js';
import type { RegistryFormat } from './registry-source.js';

export const registryFormats: Record<string, RegistryFormat> = { ...gleifFormats, ...companiesHouseFormats, ...bodsFormats };

export * from './registry-source.js';
export { validateStatement, validatePackage, fromStatement, UNSPECIFIED_REASONS, type BodsDefect } from './bods.js';
export { natureToInterest, companyNumber, ukCompanyOf } from './companies-house.js';
export { gleifApi, type GleifApiOptions } from './gleif-api.js';
export { companiesHouseApi, type CompaniesHouseApiOptions } from './companies-house-api.js';
export { LiveRegistryError, type LiveRegistry, type LiveFetch, type LiveSearch, type LiveFailure } from './live-http.js';
