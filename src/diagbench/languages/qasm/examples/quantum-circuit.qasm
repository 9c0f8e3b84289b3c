// A three-qubit GHZ state with a phase on the last qubit, then every qubit measured.
OPENQASM 2.0;
include "qelib1.inc";
qreg q[3];
creg c[3];
h q[0];
cx q[0],q[1];
cx q[1],q[2];
rz(pi/4) q[2];
barrier q;
measure q -> c;
