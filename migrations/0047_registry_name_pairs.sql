-- Name search finds the records holding two common words of a query by the pair's own posting (issue 14):
-- each record is indexed by its words and by every pair of its first 8 distinct words in code-point order,
-- written "a b" (a before b; words hold no space). The same rule as `wordPairs` in
-- src/modules/businesses/name-tokens.ts, applied here to the words already stored.
INSERT INTO registry_name_tokens (token, source, ref)
SELECT a.token || ' ' || b.token, a.source, a.ref
FROM (SELECT source, ref, token, row_number() OVER (PARTITION BY source, ref ORDER BY token COLLATE "C") AS n
      FROM registry_name_tokens WHERE position(' ' IN token) = 0) a
JOIN (SELECT source, ref, token, row_number() OVER (PARTITION BY source, ref ORDER BY token COLLATE "C") AS n
      FROM registry_name_tokens WHERE position(' ' IN token) = 0) b
  ON b.source = a.source AND b.ref = a.ref AND b.n > a.n
WHERE a.n <= 8 AND b.n <= 8;
