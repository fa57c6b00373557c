-- Sanctions screening: every import of an OFAC SDN file is a versioned list; the newest version is the one in force.
CREATE TABLE sanctions_lists (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- import order: 1, 2, 3, ...; the highest version is the list in force
  version integer NOT NULL UNIQUE,
  source text NOT NULL DEFAULT 'OFAC SDN List',
  format text NOT NULL CHECK (format IN ('sdn_advanced_xml', 'sdn_csv')),
  published_at timestamptz NOT NULL,
  entry_count integer NOT NULL CHECK (entry_count >= 0),
  file_sha256 text NOT NULL,
  file_bytes integer NOT NULL,
  file_name text,
  imported_by text NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  -- score recomputation of the wallets whose status this version changed: a lease, then the time it finished
  recompute_claimed_until timestamptz,
  recompute_done_at timestamptz,
  recomputed_count integer
);
CREATE INDEX sanctions_lists_pending_idx ON sanctions_lists (version) WHERE recompute_done_at IS NULL;

CREATE TABLE sanctions_entries (
  list_id uuid NOT NULL REFERENCES sanctions_lists (id) ON DELETE CASCADE,
  -- lowercase 0x + 40 hex
  address text NOT NULL,
  entity_name text NOT NULL,
  -- tickers the address is published under, comma-separated (ETH,USDC)
  currencies text NOT NULL,
  -- SDN entry ids (advanced XML FixedRef / sdn.csv ent_num), comma-separated
  sdn_ids text NOT NULL,
  PRIMARY KEY (list_id, address)
);
