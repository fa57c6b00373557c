-- Issue 24: debt claims kept apart by environment, like disputes and webhooks (0038). A claim filed with test
-- credentials (a cred_test_ key or a test sign-in) is a test claim: invisible to live credentials and they to it,
-- never read by the scoring model, its notice sent only to test webhooks and test hub connections.
ALTER TABLE debt_claims ADD COLUMN environment text NOT NULL DEFAULT 'live' CHECK (environment IN ('live', 'test'));
