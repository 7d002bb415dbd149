// The body of a port that a build leaves out (NFUNC = 1 in nic82546 and
// nic82599, both with the same names for the per-port buses): register
// reads answer 0 one edge later, as a function would; writes are ignored;
// no DMA, no frame, no interrupt, no timer.  Included inside the top's
// `g_absent` generate loop, whose genvar is f.
reg rv;
always @(posedge clk) rv <= !rst && mmio_valid_q && mmio_func_q == f[0] && !mmio_write_q;
assign m_rvalid[f] = rv;
assign m_rdata[32*f +: 32] = 32'd0;
assign m_known[f] = 1'b1;          // absent by design: not an unmodelled register
assign {req_valid[f], req_write[f], req_tag[5*f +: 5], req_addr[64*f +: 64], req_len[16*f +: 16]} = 87'd0;
assign {wvalid[f], wdata[256*f +: 256], wlast[f]} = 258'd0;
assign {mac_tx_valid[f], mac_tx_data[256*f +: 256], mac_tx_nbytes[6*f +: 6], mac_tx_last[f], mac_tx_fcs[f],
        mac_tx_ipg[11*f +: 11]} = 276'd0;
assign irq[f] = 1'b0;
assign func_next_timer[18*f +: 18] = 18'h3FFFF;
assign busy[f] = rv;
