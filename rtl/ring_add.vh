// a + n modulo the ring size (a < ring_size, n <= ring_size): descriptor
// ring index arithmetic of the TX and RX queues.  Included inside a module
// that has a 16-bit `ring_size` in scope.
function [15:0] ring_add(input [15:0] a, input [15:0] n);
    reg [16:0] s;
    begin
        s = {1'b0, a} + {1'b0, n};
        if (s >= {1'b0, ring_size}) s = s - {1'b0, ring_size};
        ring_add = s[15:0];
    end
endfunction
