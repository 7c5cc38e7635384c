import { Type, type Static } from '@sinclair/typebox';
import { checkBody } from '../kernel/index.js';

export const ContactStartBody = checkBody({
  channel: Type.Union([Type.Literal('email'), Type.Literal('sms')], {
    description: 'email: the code goes by SMTP; sms: through the SMS provider.',
  }),
  destination: Type.String({
    minLength: 3,
    maxLength: 320,
    description: 'Email address, or phone number (E.164, or national with CONTACT_DEFAULT_COUNTRY).',
  }),
});
export type ContactStartBody = Static<typeof ContactStartBody>;

export const ContactConfirmBody = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 20,
      pattern: '^[0-9][0-9 -]*$',
      description: 'The code the person received (spaces and hyphens are ignored).',
    }),
  },
  { additionalProperties: false },
);
export type ContactConfirmBody = Static<typeof ContactConfirmBody>;
