// A 4-bit accumulator: adds or subtracts the input, masks it, and registers the sum.
module accumulator(
  input  wire       clk,
  input  wire       sub,
  input  wire [3:0] a,
  input  wire [3:0] mask,
  output reg  [3:0] acc,
  output wire       zero
);
  wire [3:0] masked = a & mask;
  wire [3:0] sum = sub ? acc - masked : acc + masked;
  assign zero = acc == 4'd0;
  always @(posedge clk)
    acc <= sum;
endmodule
