import { Type, type Static } from '@sinclair/typebox';

const Env = Type.Union([Type.Literal('sandbox'), Type.Literal('production')]);

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    environment: Env,
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^acct_[A-Za-z0-9]+$' })),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const TotpBody = Type.Object(
  {
    challenge: Type.String({ minLength: 1, maxLength: 100 }),
    code: Type.String({ pattern: '^[0-9]{6}$' }),
  },
  { additionalProperties: false },
);
export type TotpBody = Static<typeof TotpBody>;

export const EnvironmentBody = Type.Object({ environment: Env }, { additionalProperties: false });
export type EnvironmentBody = Static<typeof EnvironmentBody>;
