-- Alert review cases opened by an alert (raiseAlert: a KYT rule hit, a wallet, a business, a travel
-- rule message) were written without their first trail row, so the console's case screen showed an
-- empty trail for them. New ones get it in the same statement as the case (cases repository,
-- insertWithCase); the existing ones get it here, at the case's creation and by the system (the
-- opening actor was not kept on the case; the case.opened audit row still names it). The trail is
-- read in (at, id) order, so a later transition stays after this opening.
INSERT INTO case_transitions (case_id, account_id, environment, from_state, to_state, event, actor, at)
  SELECT c.id, c.account_id, c.environment, NULL, 'open', 'opened', 'system:system', c.created_at
  FROM cases c
  WHERE NOT EXISTS (SELECT 1 FROM case_transitions t WHERE t.case_id = c.id AND t.from_state IS NULL);
