-- Verified Uniswap pools are protocol contracts, not people: an address that emitted swaps the registry verified
-- (factory-derived, allowlisted pair) is labelled `contract` when someone asks for its score. Swap records carry
-- the pool in `contract`; this partial index answers "is this address a verified pool" with one index probe.
CREATE INDEX wallet_activity_swap_pool_idx ON wallet_activity (contract) WHERE kind = 'swap';
