-- Model 4.0.0: each stored score keeps the conduct it was held from and the backing (USD the wallet lost and cannot
-- get back) that held it. Rows stored by earlier models have neither; their version differs from the running
-- model's, so they are recomputed on their next read (cause model_upgrade) and gain both then.
ALTER TABLE scores ADD COLUMN conduct integer;
ALTER TABLE scores ADD COLUMN backing_usd double precision;

-- Just-in-time liquidity: a swap's fee backs nothing when a position was minted in the same pool and block.
CREATE INDEX wallet_activity_lp_pool_idx ON wallet_activity (contract, block_number) WHERE kind = 'lp_position';
