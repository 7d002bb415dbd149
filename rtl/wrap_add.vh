// a + n in a circular space of `size` bytes (a < size, n <= size): the
// packet buffer's and the MAC's address arithmetic.  Included inside a
// module that defines AW (byte address width).
function [AW-1:0] wrap_add(input [AW-1:0] a, input [16:0] n, input [AW:0] size);
    reg [AW+1:0] s;
    begin
        s = {2'b0, a} + {{(AW-16){1'b0}}, n};
        if (size != 0 && s >= {1'b0, size}) s = s - {1'b0, size};
        wrap_add = s[AW-1:0];
    end
endfunction
