/** Long OpenAPI descriptions of this module's operations, by operationId. */
export const OPERATION_DOCS = {
  createTravelRuleMessage:
    'Outgoing (default): the IVMS101 payload is validated strictly (400 names the failing path, e.g. ivms101.originator.originatorPersons[0].naturalPerson.name, with the IVMS101 constraint code). The jurisdiction’s threshold (FATF 1,000 USD/EUR, EU none, US 3,000 USD, …) is applied to amount_fiat and recorded as threshold_applied: below it the message is saved (stored, not sent). Otherwise it is sent over TRP to the travel address (or the counterparty’s TRP endpoint) through the outbox, with retries; send: false keeps a draft. Incoming with protocol manual records a message received by other means (validated leniently, then screened). Emits travel_rule.status_changed.',
  listTravelRuleMessages: 'Newest first. Filters: status, direction, counterparty_id, request_identifier.',
  actions:
    'A lifecycle move of the message; an illegal move is 409 conflict (allowed_actions lists the legal ones). Every move is audited and emits travel_rule.status_changed; on TRP messages the matching TRP message (resolution or confirmation) goes out through the outbox. On TRP messages the counterparty’s own moves (its acceptance, rejection or repair request of our message; its confirmation of a message we accepted) arrive over TRP and are 409 here.',
  listCounterparties:
    'The VASP directory. Filters: query (part of the name or legal name), lei, domain, travel_address, protocol. Each entry carries its due-diligence status and the screening of its legal name.',
  updateTravelRuleSettings:
    'inbound_trp_enabled turns on this environment’s TRP receiver (off by default); the answer gives its URL and travel address, whose path secret identifies the environment. rotate_inbound_secret makes a new URL (the old one stops answering).',
};
