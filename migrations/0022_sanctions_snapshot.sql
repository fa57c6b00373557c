-- Sanctions (issue 15): the OFAC SDN snapshot shipped in data/sanctions is loaded as a list of its own format,
-- so results can say whether the shipped snapshot or an imported official file answered.
ALTER TABLE sanctions_lists DROP CONSTRAINT sanctions_lists_format_check;
ALTER TABLE sanctions_lists ADD CONSTRAINT sanctions_lists_format_check CHECK (format IN ('sdn_advanced_xml', 'sdn_csv', 'snapshot'));
