-- Active liveness challenge (issue #19 item 6): the actions the server asked the subject for, chosen at
-- random when the hosted capture requests a challenge, and when. The frames are media rows of kinds
-- challenge_frame_<n>; the pipeline judges them against this sequence, so a recording of another
-- session (another sequence) fails. A new request replaces the challenge and retires its frames.
ALTER TABLE sessions ADD COLUMN liveness_challenge jsonb;
