pragma circom 2.1.0;
// Proves: the score Credence committed to for (subject, categoryId) is at least `threshold`,
// revealing neither the score nor the salt.
// Public signals, in this order (declaration order): threshold, categoryId, subject, commitment, validUntil.
// validUntil (Unix seconds) is the proof's expiry: the circuit only binds it (range-checked, part of the statement
// the proof is about); the API, the oracle contract (block.timestamp) and offline verifiers refuse a proof past it.
// commitment = Poseidon(subject, categoryId, score, salt); salt is a random field element (a score has only
// 1,001 values, so without a random salt the commitment would be brute-forced at once).
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/comparators.circom";
include "circomlib/circuits/bitify.circom";

template ScoreThreshold() {
    signal input threshold;   // public, 0..1000
    signal input categoryId;  // public, 0..8 (index in the category list)
    signal input subject;     // public, the wallet address as a 160-bit integer
    signal input commitment;  // public
    signal input validUntil;  // public, Unix seconds
    signal input score;       // private, 0..1000
    signal input salt;        // private, random field element

    // Range checks first: comparators are only sound on inputs known to fit their bit width.
    component scoreBits = Num2Bits(10);
    scoreBits.in <== score;
    component thresholdBits = Num2Bits(10);
    thresholdBits.in <== threshold;
    component categoryBits = Num2Bits(8);
    categoryBits.in <== categoryId;
    component subjectBits = Num2Bits(160);
    subjectBits.in <== subject;
    component validUntilBits = Num2Bits(64);
    validUntilBits.in <== validUntil;

    component maxScore = LessEqThan(10);
    maxScore.in[0] <== score;
    maxScore.in[1] <== 1000;
    maxScore.out === 1;

    component atLeast = GreaterEqThan(10);
    atLeast.in[0] <== score;
    atLeast.in[1] <== threshold;
    atLeast.out === 1;

    component h = Poseidon(4);
    h.inputs[0] <== subject;
    h.inputs[1] <== categoryId;
    h.inputs[2] <== score;
    h.inputs[3] <== salt;
    commitment === h.out;
}

component main {public [threshold, categoryId, subject, commitment, validUntil]} = ScoreThreshold();
