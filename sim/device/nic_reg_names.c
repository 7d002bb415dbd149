/* The register name tables (nic_reg_names.h). */
#include "nic_reg_names.h"
#include <stdio.h>

/* A register, or a bank of count registers stride bytes apart ("NAME(n)",
 * n from first: the 82599's queues 64..127 have a second bank). */
typedef struct reg_name {
    uint32_t off, stride, count;
    const char *name;
    uint32_t first;
} reg_name;

/* 8254x: nic-facts A1 and A3 (Linux e1000_hw.h). */
static const reg_name e1000_regs[] = {
    { 0x00000, 0, 1, "CTRL", 0 }, { 0x00008, 0, 1, "STATUS", 0 }, { 0x00010, 0, 1, "EECD", 0 }, { 0x00014, 0, 1, "EERD", 0 },
    { 0x00018, 0, 1, "CTRL_EXT", 0 }, { 0x0001C, 0, 1, "FLA", 0 }, { 0x00020, 0, 1, "MDIC", 0 }, { 0x00028, 0, 1, "FCAL", 0 },
    { 0x0002C, 0, 1, "FCAH", 0 }, { 0x00030, 0, 1, "FCT", 0 }, { 0x00038, 0, 1, "VET", 0 }, { 0x000C0, 0, 1, "ICR", 0 },
    { 0x000C4, 0, 1, "ITR", 0 }, { 0x000C8, 0, 1, "ICS", 0 }, { 0x000D0, 0, 1, "IMS", 0 }, { 0x000D8, 0, 1, "IMC", 0 },
    { 0x00100, 0, 1, "RCTL", 0 }, { 0x00170, 0, 1, "FCTTV", 0 }, { 0x00178, 0, 1, "TXCW", 0 }, { 0x00180, 0, 1, "RXCW", 0 },
    { 0x00400, 0, 1, "TCTL", 0 }, { 0x00410, 0, 1, "TIPG", 0 }, { 0x00458, 0, 1, "AIT", 0 }, { 0x00E00, 0, 1, "LEDCTL", 0 },
    { 0x01000, 0, 1, "PBA", 0 }, { 0x02160, 0, 1, "FCRTL", 0 }, { 0x02168, 0, 1, "FCRTH", 0 }, { 0x02800, 0, 1, "RDBAL", 0 },
    { 0x02804, 0, 1, "RDBAH", 0 }, { 0x02808, 0, 1, "RDLEN", 0 }, { 0x02810, 0, 1, "RDH", 0 }, { 0x02818, 0, 1, "RDT", 0 },
    { 0x02820, 0, 1, "RDTR", 0 }, { 0x02828, 0, 1, "RXDCTL", 0 }, { 0x0282C, 0, 1, "RADV", 0 }, { 0x03800, 0, 1, "TDBAL", 0 },
    { 0x03804, 0, 1, "TDBAH", 0 }, { 0x03808, 0, 1, "TDLEN", 0 }, { 0x03810, 0, 1, "TDH", 0 }, { 0x03818, 0, 1, "TDT", 0 },
    { 0x03820, 0, 1, "TIDV", 0 }, { 0x03828, 0, 1, "TXDCTL", 0 }, { 0x0382C, 0, 1, "TADV", 0 },
    { 0x04000, 0, 1, "CRCERRS", 0 }, { 0x04004, 0, 1, "ALGNERRC", 0 }, { 0x04008, 0, 1, "SYMERRS", 0 },
    { 0x0400C, 0, 1, "RXERRC", 0 }, { 0x04010, 0, 1, "MPC", 0 }, { 0x04014, 0, 1, "SCC", 0 }, { 0x04018, 0, 1, "ECOL", 0 },
    { 0x0401C, 0, 1, "MCC", 0 }, { 0x04020, 0, 1, "LATECOL", 0 }, { 0x04028, 0, 1, "COLC", 0 }, { 0x04030, 0, 1, "DC", 0 },
    { 0x04034, 0, 1, "TNCRS", 0 }, { 0x04038, 0, 1, "SEC", 0 }, { 0x0403C, 0, 1, "CEXTERR", 0 }, { 0x04040, 0, 1, "RLEC", 0 },
    { 0x04048, 0, 1, "XONRXC", 0 }, { 0x0404C, 0, 1, "XONTXC", 0 }, { 0x04050, 0, 1, "XOFFRXC", 0 },
    { 0x04054, 0, 1, "XOFFTXC", 0 }, { 0x04058, 0, 1, "FCRUC", 0 }, { 0x0405C, 0, 1, "PRC64", 0 }, { 0x04060, 0, 1, "PRC127", 0 }, { 0x04064, 0, 1, "PRC255", 0 }, { 0x04068, 0, 1, "PRC511", 0 }, { 0x0406C, 0, 1, "PRC1023", 0 }, { 0x04070, 0, 1, "PRC1522", 0 },
    { 0x04074, 0, 1, "GPRC", 0 }, { 0x04078, 0, 1, "BPRC", 0 }, { 0x0407C, 0, 1, "MPRC", 0 }, { 0x04080, 0, 1, "GPTC", 0 },
    { 0x04088, 0, 1, "GORCL", 0 }, { 0x0408C, 0, 1, "GORCH", 0 }, { 0x04090, 0, 1, "GOTCL", 0 }, { 0x04094, 0, 1, "GOTCH", 0 },
    { 0x040A0, 0, 1, "RNBC", 0 }, { 0x040A4, 0, 1, "RUC", 0 }, { 0x040A8, 0, 1, "RFC", 0 }, { 0x040AC, 0, 1, "ROC", 0 },
    { 0x040B0, 0, 1, "RJC", 0 }, { 0x040C0, 0, 1, "TORL", 0 }, { 0x040C4, 0, 1, "TORH", 0 }, { 0x040C8, 0, 1, "TOTL", 0 },
    { 0x040CC, 0, 1, "TOTH", 0 }, { 0x040D0, 0, 1, "TPR", 0 }, { 0x040D4, 0, 1, "TPT", 0 }, { 0x040D8, 0, 1, "PTC64", 0 }, { 0x040DC, 0, 1, "PTC127", 0 }, { 0x040E0, 0, 1, "PTC255", 0 }, { 0x040E4, 0, 1, "PTC511", 0 }, { 0x040E8, 0, 1, "PTC1023", 0 }, { 0x040EC, 0, 1, "PTC1522", 0 },
    { 0x040F0, 0, 1, "MPTC", 0 }, { 0x040F4, 0, 1, "BPTC", 0 }, { 0x040F8, 0, 1, "TSCTC", 0 }, { 0x040FC, 0, 1, "TSCTFC", 0 },
    { 0x05000, 0, 1, "RXCSUM", 0 }, { 0x05200, 4, 128, "MTA", 0 }, { 0x05400, 8, 16, "RAL", 0 }, { 0x05404, 8, 16, "RAH", 0 },
    { 0x05600, 4, 128, "VFTA", 0 }, { 0x05800, 0, 1, "WUC", 0 }, { 0x05808, 0, 1, "WUFC", 0 }, { 0x05810, 0, 1, "WUS", 0 },
    { 0x05820, 0, 1, "MANC", 0 },
};

/* 82599: nic-facts B1 and Linux ixgbe_type.h. */
static const reg_name ixgbe_regs[] = {
    { 0x00000, 0, 1, "CTRL", 0 }, { 0x00008, 0, 1, "STATUS", 0 }, { 0x00018, 0, 1, "CTRL_EXT", 0 },
    { 0x00020, 0, 1, "ESDP", 0 }, { 0x00200, 0, 1, "LEDCTL", 0 }, { 0x00800, 0, 1, "EICR", 0 }, { 0x00808, 0, 1, "EICS", 0 },
    { 0x00810, 0, 1, "EIAC", 0 }, { 0x00820, 4, 24, "EITR", 0 }, { 0x00880, 0, 1, "EIMS", 0 }, { 0x00888, 0, 1, "EIMC", 0 },
    { 0x00890, 0, 1, "EIAM", 0 }, { 0x00898, 0, 1, "GPIE", 0 }, { 0x00900, 4, 64, "IVAR", 0 }, { 0x00A00, 0, 1, "IVAR_MISC", 0 },
    { 0x00A90, 4, 2, "EICS_EX", 0 }, { 0x00AA0, 4, 2, "EIMS_EX", 0 }, { 0x00AB0, 4, 2, "EIMC_EX", 0 },
    { 0x00AD0, 4, 2, "EIAM_EX", 0 }, { 0x01000, 0x40, 64, "RDBAL", 0 }, { 0x01004, 0x40, 64, "RDBAH", 0 },
    { 0x01008, 0x40, 64, "RDLEN", 0 }, { 0x01010, 0x40, 64, "RDH", 0 }, { 0x01018, 0x40, 64, "RDT", 0 },
    { 0x01028, 0x40, 64, "RXDCTL", 0 }, { 0x01030, 0x40, 16, "QPRC", 0 }, { 0x01034, 0x40, 16, "QBRC_L", 0 },
    { 0x01038, 0x40, 16, "QBRC_H", 0 }, { 0x01430, 0x40, 16, "QPRDC", 0 },
    { 0x0D000, 0x40, 64, "RDBAL", 64 }, { 0x0D004, 0x40, 64, "RDBAH", 64 }, { 0x0D008, 0x40, 64, "RDLEN", 64 },
    { 0x0D010, 0x40, 64, "RDH", 64 }, { 0x0D018, 0x40, 64, "RDT", 64 }, { 0x0D028, 0x40, 64, "RXDCTL", 64 },
    { 0x0D00C, 0x40, 64, "DCA_RXCTRL", 64 }, { 0x0140C, 0x40, 48, "DCA_RXCTRL", 16 }, { 0x02300, 4, 32, "RQSMR", 0 },
    { 0x0600C, 0x40, 128, "DCA_TXCTRL", 0 }, { 0x08600, 4, 32, "TQSM", 0 }, { 0x08120, 0, 1, "MTQC", 0 },
    { 0x08220, 0, 1, "PFDTXGSWC", 0 }, { 0x04904, 0, 1, "RTTDQSEL", 0 }, { 0x04984, 0, 1, "RTTBCNRC", 0 },
    { 0x04208, 0, 1, "PCS1GLCTL", 0 }, { 0x04218, 0, 1, "PCS1GANA", 0 }, { 0x04324, 0, 1, "LINKS2", 0 },
    { 0x04140, 4, 8, "PXONRXCNT", 0 }, { 0x04160, 4, 8, "PXOFFRXCNT", 0 }, { 0x03240, 4, 8, "PXON2OFFCNT", 0 },
    { 0x03F00, 4, 8, "PXONTXC", 0 }, { 0x03F20, 4, 8, "PXOFFTXC", 0 }, { 0x03F60, 0, 1, "LXONTXC", 0 },
    { 0x03F68, 0, 1, "LXOFFTXC", 0 }, { 0x041A4, 0, 1, "LXONRXCNT", 0 }, { 0x041A8, 0, 1, "LXOFFRXCNT", 0 },
    { 0x04010, 0, 1, "MSPDC", 0 }, { 0x04120, 0, 1, "XEC", 0 }, { 0x040B4, 0, 1, "MNGPRC", 0 }, { 0x040B8, 0, 1, "MNGPDC", 0 },
    { 0x0CF90, 0, 1, "MNGPTC", 0 }, { 0x05118, 0, 1, "FCCRC", 0 },
    { 0x08700, 8, 16, "QBTC_L", 0 }, { 0x08704, 8, 16, "QBTC_H", 0 },
    { 0x0F400, 4, 128, "UTA", 0 }, { 0x0F100, 4, 64, "VLVF", 0 }, { 0x0F200, 4, 128, "VLVFB", 0 }, { 0x02100, 4, 16, "SRRCTL", 0 }, { 0x02200, 4, 16, "DCA_RXCTRL", 0 },
    { 0x02F00, 0, 1, "RDRXCTL", 0 }, { 0x03000, 0, 1, "RXCTRL", 0 }, { 0x03200, 4, 4, "FCTTV", 0 },
    { 0x03220, 4, 8, "FCRTL", 0 }, { 0x03260, 4, 8, "FCRTH", 0 }, { 0x032A0, 0, 1, "FCRTV", 0 },
    { 0x03C00, 4, 8, "RXPBSIZE", 0 }, { 0x03D00, 0, 1, "FCCFG", 0 }, { 0x03FA0, 4, 8, "MPC", 0 }, { 0x03FC0, 4, 8, "RNBC", 0 },
    { 0x04000, 0, 1, "CRCERRS", 0 }, { 0x04004, 0, 1, "ILLERRC", 0 }, { 0x04008, 0, 1, "ERRBC", 0 },
    { 0x04034, 0, 1, "MLFC", 0 }, { 0x04038, 0, 1, "MRFC", 0 }, { 0x04040, 0, 1, "RLEC", 0 }, { 0x0405C, 0, 1, "PRC64", 0 }, { 0x04060, 0, 1, "PRC127", 0 }, { 0x04064, 0, 1, "PRC255", 0 }, { 0x04068, 0, 1, "PRC511", 0 }, { 0x0406C, 0, 1, "PRC1023", 0 }, { 0x04070, 0, 1, "PRC1522", 0 },
    { 0x04074, 0, 1, "GPRC", 0 }, { 0x04078, 0, 1, "BPRC", 0 }, { 0x0407C, 0, 1, "MPRC", 0 }, { 0x04080, 0, 1, "GPTC", 0 },
    { 0x04088, 0, 1, "GORCL", 0 }, { 0x0408C, 0, 1, "GORCH", 0 }, { 0x04090, 0, 1, "GOTCL", 0 }, { 0x04094, 0, 1, "GOTCH", 0 },
    { 0x040A4, 0, 1, "RUC", 0 }, { 0x040A8, 0, 1, "RFC", 0 }, { 0x040AC, 0, 1, "ROC", 0 }, { 0x040B0, 0, 1, "RJC", 0 },
    { 0x040C0, 0, 1, "TORL", 0 }, { 0x040C4, 0, 1, "TORH", 0 }, { 0x040D0, 0, 1, "TPR", 0 }, { 0x040D4, 0, 1, "TPT", 0 },
    { 0x040D8, 0, 1, "PTC64", 0 }, { 0x040DC, 0, 1, "PTC127", 0 }, { 0x040E0, 0, 1, "PTC255", 0 }, { 0x040E4, 0, 1, "PTC511", 0 }, { 0x040E8, 0, 1, "PTC1023", 0 }, { 0x040EC, 0, 1, "PTC1522", 0 }, { 0x040F0, 0, 1, "MPTC", 0 }, { 0x040F4, 0, 1, "BPTC", 0 },
    { 0x04240, 0, 1, "HLREG0", 0 }, { 0x04244, 0, 1, "HLREG1", 0 }, { 0x04248, 0, 1, "PAP", 0 }, { 0x0425C, 0, 1, "MSCA", 0 },
    { 0x04260, 0, 1, "MSRWD", 0 }, { 0x04268, 0, 1, "MAXFRS", 0 }, { 0x04294, 0, 1, "MFLCN", 0 }, { 0x0429C, 0, 1, "MACS", 0 },
    { 0x042A0, 0, 1, "AUTOC", 0 }, { 0x042A4, 0, 1, "LINKS", 0 }, { 0x042A8, 0, 1, "AUTOC2", 0 },
    { 0x042B0, 0, 1, "ANLP1", 0 }, { 0x042D0, 0, 1, "MMNGC", 0 }, { 0x08D00, 0, 1, "SECRXCTRL", 0 },
    { 0x08D04, 0, 1, "SECRXSTAT", 0 },
    { 0x04900, 0, 1, "RTTDCS", 0 }, { 0x04A80, 0, 1, "DMATXCTL", 0 }, { 0x05000, 0, 1, "RXCSUM", 0 },
    { 0x05008, 0, 1, "RFCTL", 0 }, { 0x05080, 0, 1, "FCTRL", 0 }, { 0x05088, 0, 1, "VLNCTRL", 0 },
    { 0x05090, 0, 1, "MCSTCTRL", 0 }, { 0x05200, 4, 128, "MTA", 0 }, { 0x05400, 8, 16, "RAL", 0 }, { 0x05404, 8, 16, "RAH", 0 },
    { 0x05820, 0, 1, "MANC", 0 }, { 0x06000, 0x40, 128, "TDBAL", 0 }, { 0x06004, 0x40, 128, "TDBAH", 0 },
    { 0x06008, 0x40, 128, "TDLEN", 0 }, { 0x06010, 0x40, 128, "TDH", 0 }, { 0x06018, 0x40, 128, "TDT", 0 },
    { 0x06028, 0x40, 128, "TXDCTL", 0 }, { 0x06030, 0x40, 16, "QPTC", 0 },
    { 0x06038, 0x40, 128, "TDWBAL", 0 }, { 0x0603C, 0x40, 128, "TDWBAH", 0 }, { 0x08100, 0, 1, "DTXMXSZRQ", 0 },
    { 0x0A000, 4, 128, "VFTA", 0 }, { 0x0A200, 8, 128, "RAL", 0 }, { 0x0A204, 8, 128, "RAH", 0 },
    { 0x0A600, 8, 128, "MPSAR_LO", 0 }, { 0x0A604, 8, 128, "MPSAR_HI", 0 }, { 0x0CC00, 4, 8, "TXPBSIZE", 0 },
    { 0x0EA00, 4, 64, "PSRTYPE", 0 }, { 0x0EB00, 4, 32, "RETA", 0 }, { 0x0EB80, 4, 10, "RSSRK", 0 },
    { 0x0EC80, 0, 1, "MRQC", 0 }, { 0x10010, 0, 1, "EEC", 0 }, { 0x10014, 0, 1, "EERD", 0 }, { 0x1001C, 0, 1, "FLA", 0 },
    { 0x10140, 0, 1, "SWSM", 0 }, { 0x10148, 0, 1, "FWSM", 0 }, { 0x10150, 0, 1, "FACTPS", 0 }, { 0x10160, 0, 1, "SW_FW_SYNC", 0 }, { 0x11000, 0, 1, "GCR", 0 },
    { 0x11050, 0, 1, "GCR_EXT", 0 }, { 0x11064, 0, 1, "MREVID", 0 }, { 0x15F00, 0, 1, "HICR", 0 },
    { 0x15F0C, 0, 1, "FWSTS", 0 },
};

static const char *lookup(const reg_name *t, size_t n, uint32_t off, char *buf, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        const reg_name *r = &t[i];
        if (off < r->off)
            continue;
        uint32_t d = off - r->off;
        if (r->count == 1 && d == 0) {
            snprintf(buf, len, "%s", r->name);
            return buf;
        }
        if (r->count > 1 && d % r->stride == 0 && d / r->stride < r->count) {
            snprintf(buf, len, "%s(%u)", r->name, r->first + d / r->stride);
            return buf;
        }
    }
    snprintf(buf, len, "%#07x", off);
    return buf;
}

const char *nic_reg_name(int adv, uint32_t off, char *buf, size_t n)
{
    return adv ? lookup(ixgbe_regs, sizeof ixgbe_regs / sizeof ixgbe_regs[0], off, buf, n)
               : lookup(e1000_regs, sizeof e1000_regs / sizeof e1000_regs[0], off, buf, n);
}
