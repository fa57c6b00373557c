-- A self-dealing marker lasts while its liquidity is in the pool: a V3 position's liquidity records and burn
-- ('lp_liquidity', by token id, whoever sent them) are looked up by the position manager and token id.
CREATE INDEX wallet_activity_lp_liquidity_idx ON wallet_activity (contract, token_id) WHERE kind = 'lp_liquidity';
