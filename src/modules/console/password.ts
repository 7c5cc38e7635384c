import { hash, verify } from '@node-rs/argon2';

/**
 * Passwords are argon2id PHC strings (@node-rs/argon2, whose default algorithm is argon2id) with
 * OWASP's 2023 parameters: 19 MiB, 2 passes, 1 lane. Hashing runs on libuv's thread pool, not on the
 * event loop. A sign-in for an unknown email verifies against DUMMY_HASH so it costs the same.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `the password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `the password must have at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | null = null;

export async function verifyPassword(phc: string | null, password: string): Promise<boolean> {
  if (phc === null) {
    dummy ??= hash('verity-dummy-password-for-timing', OPTIONS);
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(phc, password).catch(() => false);
}
