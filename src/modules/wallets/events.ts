import { Type } from '@sinclair/typebox';
import { defineEvent } from '../../platform/event-catalog.js';

export const WALLET_SCREENED = 'wallet.screened';
export const WALLET_RISK_CHANGED = 'wallet.risk_changed';

const Risk = Type.Object({ level: Type.String(), categories: Type.Array(Type.String()) });

export const WALLET_EVENTS = [
  defineEvent(
    WALLET_SCREENED,
    'A wallet address was screened (POST /v1/wallets/screen or a monitor registration).',
    Type.Object({
      id: Type.String(),
      address: Type.String({ description: 'Normalised address.' }),
      chain: Type.String(),
      level: Type.String(),
      score: Type.Integer(),
      categories: Type.Array(Type.String()),
      subject_reference: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  defineEvent(
    WALLET_RISK_CHANGED,
    "A monitored wallet's risk level or categories changed after a list update or new transfers (the wallet re-screening hit).",
    Type.Object({
      monitor_id: Type.String(),
      subject_reference: Type.String(),
      address: Type.String(),
      chain: Type.String(),
      before: Risk,
      after: Risk,
      screening_id: Type.String({ description: 'The re-screen (GET /v1/wallets/screenings/{id}).' }),
      trigger: Type.String({ description: 'list_update or transfers.' }),
      alert_id: Type.Union([Type.String(), Type.Null()], {
        description: 'The wallet_risk alert raised (GET /v1/cases shows it with its case).',
      }),
    }),
  ),
];
