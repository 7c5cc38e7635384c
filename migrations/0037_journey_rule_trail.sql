-- Journey rules over the session's context (issue #13 item 4): the trail of a system decision, one entry
-- per journey rule (key, outcome, match | no_match | error, the values it read). It holds derived personal
-- data (age, nationality, document expiry), so it lives with the session and is erased with it (never in
-- the append-only audit log, whose row names only each rule and its result).
ALTER TABLE sessions ADD COLUMN rule_trail jsonb;
