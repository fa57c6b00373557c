pragma circom 2.1.0;
// Proves: the birth date Credence committed to for `subject` (from an approved KYC) makes the person at least
// `minimumAge` years old on `currentDate`, revealing neither the birth date nor the salt.
// Dates are integers yyyymmdd. "At least N years old" is birthDate + N * 10000 <= currentDate, i.e. the
// N-th birthday (same month and day, N years later) has been reached; someone born on 29 February becomes
// N on 1 March in non-leap years.
// Public signals, in this order (declaration order): currentDate, minimumAge, subject, commitment, validUntil.
// validUntil (Unix seconds) is the proof's expiry, bound by the proof and checked by every verifier.
// commitment = Poseidon(subject, birthDate, salt); salt is a random field element.
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/comparators.circom";
include "circomlib/circuits/bitify.circom";

template AgeOver() {
    signal input currentDate; // public, yyyymmdd
    signal input minimumAge;  // public, whole years 0..255
    signal input subject;     // public, the wallet address as a 160-bit integer
    signal input commitment;  // public
    signal input validUntil;  // public, Unix seconds
    signal input birthDate;   // private, yyyymmdd
    signal input salt;        // private, random field element

    // Range checks: yyyymmdd < 10^8 < 2^27; the sum below stays under 2^28.
    component currentBits = Num2Bits(27);
    currentBits.in <== currentDate;
    component birthBits = Num2Bits(27);
    birthBits.in <== birthDate;
    component ageBits = Num2Bits(8);
    ageBits.in <== minimumAge;
    component subjectBits = Num2Bits(160);
    subjectBits.in <== subject;
    component validUntilBits = Num2Bits(64);
    validUntilBits.in <== validUntil;

    // A real date, not 0: yyyymmdd >= 1000101 (year 100) keeps nonsense birth dates out.
    component plausible = GreaterEqThan(27);
    plausible.in[0] <== birthDate;
    plausible.in[1] <== 1000101;
    plausible.out === 1;

    component oldEnough = LessEqThan(28);
    oldEnough.in[0] <== birthDate + minimumAge * 10000;
    oldEnough.in[1] <== currentDate;
    oldEnough.out === 1;

    component h = Poseidon(3);
    h.inputs[0] <== subject;
    h.inputs[1] <== birthDate;
    h.inputs[2] <== salt;
    commitment === h.out;
}

component main {public [currentDate, minimumAge, subject, commitment, validUntil]} = AgeOver();
