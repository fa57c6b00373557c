-- Issue 19: model 3.0.0 holds every activity category to what its history cost (the cost ceiling, governance carry
-- from DelegateVotesChanged). Scores stored by 3.0.0 before it were computed without the ceiling: each is recomputed
-- at its next read (a model_version that is not the model's makes the scoring service recompute, cause model_upgrade).
-- Safe to run again: only rows still marked 3.0.0 before this migration are touched, once.
UPDATE scores SET model_version = 'recompute:0042' WHERE model_version = '3.0.0';
