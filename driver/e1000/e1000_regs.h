/* Intel 8254x (82546, Linux "e1000") register map, bit fields and legacy
 * descriptor layout: the contract between the driver core, the RTL model and
 * its tests.  Facts only, taken from docs nic-facts.md section A (A1, A1a, A2,
 * A3), which cites the Linux e1000_hw.h, QEMU's e1000x_regs.h and the 8254x
 * Software Developer's Manual.  Names follow Linux (E1000_*) so that readers
 * who know the Linux driver find what they expect.
 *
 * Registers are 32 bits wide in BAR0 (128 KB decode).  Descriptors are 16
 * bytes, two little-endian 64-bit words; the driver core accesses them as
 * two qwords through plat_mem_read64/plat_mem_write64, so the layout below is
 * given as shifts within those qwords. */
#ifndef NICSIM_E1000_REGS_H
#define NICSIM_E1000_REGS_H
#include <stdint.h>

/* The qword shifts below describe the little-endian memory image; a
 * big-endian host would need byte swaps that the core does not do. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the e1000 driver core assumes a little-endian host"
#endif

#define E1000_BAR0_SIZE   0x20000u   /* 128 KB register decode */

/* ---- A1: register offsets ------------------------------------------------ */
#define E1000_CTRL        0x00000u  /* device control */
#define E1000_STATUS      0x00008u  /* device status (RO) */
#define E1000_EECD        0x00010u  /* EEPROM/flash control (bit-bang) */
#define E1000_EERD        0x00014u  /* EEPROM read */
#define E1000_CTRL_EXT    0x00018u  /* extended device control */
#define E1000_ICR         0x000C0u  /* interrupt cause; a read clears it */
#define E1000_ITR         0x000C4u  /* interrupt throttle */
#define E1000_ICS         0x000C8u  /* interrupt cause set (WO) */
#define E1000_IMS         0x000D0u  /* interrupt mask set; read returns the mask */
#define E1000_IMC         0x000D8u  /* interrupt mask clear (WO) */
#define E1000_RCTL        0x00100u  /* receive control */
#define E1000_TCTL        0x00400u  /* transmit control */
#define E1000_TIPG        0x00410u  /* transmit inter-packet gap */
#define E1000_PBA         0x01000u  /* packet buffer allocation */
#define E1000_RDBAL       0x02800u  /* RX ring base low (low 4 bits ignored) */
#define E1000_RDBAH       0x02804u  /* RX ring base high */
#define E1000_RDLEN       0x02808u  /* RX ring length in bytes, multiple of 128 */
#define E1000_RDH         0x02810u  /* RX head (16 bits) */
#define E1000_RDT         0x02818u  /* RX tail (16 bits) */
#define E1000_RDTR        0x02820u  /* RX delay timer, 1.024 us units */
#define E1000_RXDCTL      0x02828u  /* RX descriptor control */
#define E1000_RADV        0x0282Cu  /* RX absolute delay, 1.024 us units */
#define E1000_TDBAL       0x03800u  /* TX ring base low */
#define E1000_TDBAH       0x03804u  /* TX ring base high */
#define E1000_TDLEN       0x03808u  /* TX ring length in bytes, multiple of 128 */
#define E1000_TDH         0x03810u  /* TX head (16 bits) */
#define E1000_TDT         0x03818u  /* TX tail (16 bits) */
#define E1000_TIDV        0x03820u  /* TX interrupt delay, 1.024 us units; 0 not allowed (SDM) */
#define E1000_TXDCTL      0x03828u  /* TX descriptor control */
#define E1000_TADV        0x0382Cu  /* TX absolute delay, 1.024 us units */
#define E1000_RXCSUM      0x05000u  /* RX checksum control */
#define E1000_MTA         0x05200u  /* multicast table, 128 x 32 bit */
#define E1000_RA          0x05400u  /* receive addresses: RAL(n) / RAH(n) */
#define E1000_RAL(n)      (0x05400u + 8u * (uint32_t)(n))
#define E1000_RAH(n)      (0x05404u + 8u * (uint32_t)(n))
#define E1000_VFTA        0x05600u  /* VLAN filter table, 128 x 32 bit */
#define E1000_VET         0x00038u  /* VLAN ether type (0x8100 at reset) */
#define E1000_RX_DESC_CACHE 0x06000u /* debug view of the RX descriptor cache, 1 KB */
#define E1000_TX_DESC_CACHE 0x07000u /* debug view of the TX descriptor cache, 1 KB */

#define E1000_MTA_ENTRIES   128u
#define E1000_VFTA_ENTRIES  128u
#define E1000_RAR_ENTRIES   15u      /* entries the Linux driver uses (16 exist) */
#define E1000_DESC_CACHE_ENTRIES 64u /* 1 KB window / 16 B per descriptor */

/* ---- A1a: CTRL --------------------------------------------------------- */
#define E1000_CTRL_FD          (1u << 0)   /* full duplex */
#define E1000_CTRL_LRST        (1u << 3)   /* link reset */
#define E1000_CTRL_ASDE        (1u << 5)   /* auto speed detect */
#define E1000_CTRL_SLU         (1u << 6)   /* set link up */
#define E1000_CTRL_ILOS        (1u << 7)   /* invert loss of signal */
#define E1000_CTRL_SPD_SHIFT   8
#define E1000_CTRL_SPD_MASK    (3u << 8)
#define E1000_CTRL_SPD_10      (0u << 8)
#define E1000_CTRL_SPD_100     (1u << 8)
#define E1000_CTRL_SPD_1000    (2u << 8)
#define E1000_CTRL_FRCSPD      (1u << 11)  /* force speed */
#define E1000_CTRL_FRCDPX      (1u << 12)  /* force duplex */
#define E1000_CTRL_SWDPIN0     (1u << 18)
#define E1000_CTRL_SWDPIN1     (1u << 19)
#define E1000_CTRL_SWDPIN2     (1u << 20)
#define E1000_CTRL_SWDPIN3     (1u << 21)
#define E1000_CTRL_SWDPIO0     (1u << 22)
#define E1000_CTRL_SWDPIO1     (1u << 23)
#define E1000_CTRL_SWDPIO2     (1u << 24)
#define E1000_CTRL_SWDPIO3     (1u << 25)
#define E1000_CTRL_RST         (1u << 26)  /* global reset; self-clearing */
#define E1000_CTRL_RFCE        (1u << 27)  /* receive flow control enable */
#define E1000_CTRL_TFCE        (1u << 28)  /* transmit flow control enable */
#define E1000_CTRL_VME         (1u << 30)  /* VLAN mode enable */
#define E1000_CTRL_PHY_RST     (1u << 31)  /* PHY reset */

/* ---- A1a: STATUS ------------------------------------------------------- */
#define E1000_STATUS_FD            (1u << 0)
#define E1000_STATUS_LU            (1u << 1)   /* link up */
#define E1000_STATUS_FUNC_SHIFT    2
#define E1000_STATUS_FUNC_MASK     (3u << 2)   /* PCI function of this port */
#define E1000_STATUS_FUNC_0        (0u << 2)
#define E1000_STATUS_FUNC_1        (1u << 2)
#define E1000_STATUS_TXOFF         (1u << 4)
#define E1000_STATUS_TBIMODE       (1u << 5)
#define E1000_STATUS_SPEED_SHIFT   6
#define E1000_STATUS_SPEED_MASK    (3u << 6)
#define E1000_STATUS_SPEED_10      (0u << 6)
#define E1000_STATUS_SPEED_100     (1u << 6)
#define E1000_STATUS_SPEED_1000    (2u << 6)
#define E1000_STATUS_PCI66         (1u << 11)
#define E1000_STATUS_BUS64         (1u << 12)
#define E1000_STATUS_PCIX_MODE     (1u << 13)
#define E1000_STATUS_PCIX_SPEED_SHIFT 14
#define E1000_STATUS_PCIX_SPEED_MASK  (3u << 14)
#define E1000_STATUS_PCIX_SPEED_66    (0u << 14)  /* 50-66 MHz */
#define E1000_STATUS_PCIX_SPEED_100   (1u << 14)  /* 66-100 MHz */
#define E1000_STATUS_PCIX_SPEED_133   (2u << 14)  /* 100-133 MHz */

/* ---- A1a: CTRL_EXT ----------------------------------------------------- */
#define E1000_CTRL_EXT_SDP_DATA_SHIFT 4          /* SDP4..7 data, bits 7:4 */
#define E1000_CTRL_EXT_SDP_DIR_SHIFT  8          /* SDP4..7 direction, bits 11:8 */
#define E1000_CTRL_EXT_EE_RST         (1u << 13)
#define E1000_CTRL_EXT_RO_DIS         (1u << 17) /* relaxed ordering disable */
#define E1000_CTRL_EXT_LINK_MODE_MASK (3u << 22)
#define E1000_CTRL_EXT_LINK_MODE_GMII (0u << 22)
#define E1000_CTRL_EXT_LINK_MODE_TBI  (3u << 22)

/* ---- A1: EERD ---------------------------------------------------------- */
#define E1000_EERD_START       (1u << 0)
#define E1000_EERD_DONE        (1u << 4)
#define E1000_EERD_ADDR_SHIFT  8
#define E1000_EERD_DATA_SHIFT  16

/* ---- A1a: RCTL --------------------------------------------------------- */
#define E1000_RCTL_RST         (1u << 0)
#define E1000_RCTL_EN          (1u << 1)
#define E1000_RCTL_SBP         (1u << 2)
#define E1000_RCTL_UPE         (1u << 3)
#define E1000_RCTL_MPE         (1u << 4)
#define E1000_RCTL_LPE         (1u << 5)
#define E1000_RCTL_LBM_MASK    (3u << 6)
#define E1000_RCTL_LBM_NO      (0u << 6)
#define E1000_RCTL_LBM_MAC     (1u << 6)
#define E1000_RCTL_RDMTS_MASK  (3u << 8)
#define E1000_RCTL_RDMTS_HALF  (0u << 8)
#define E1000_RCTL_RDMTS_QUAT  (1u << 8)
#define E1000_RCTL_RDMTS_EIGTH (2u << 8)
#define E1000_RCTL_DTYP_MASK   (3u << 10)
#define E1000_RCTL_MO_SHIFT    12
#define E1000_RCTL_MO_MASK     (3u << 12)
#define E1000_RCTL_BAM         (1u << 15)
#define E1000_RCTL_BSIZE_MASK  (3u << 16)
#define E1000_RCTL_SZ_2048     (0u << 16)        /* BSEX = 0 */
#define E1000_RCTL_SZ_1024     (1u << 16)
#define E1000_RCTL_SZ_512      (2u << 16)
#define E1000_RCTL_SZ_256      (3u << 16)
#define E1000_RCTL_SZ_16384    (1u << 16)        /* with BSEX = 1 */
#define E1000_RCTL_SZ_8192     (2u << 16)
#define E1000_RCTL_SZ_4096     (3u << 16)
#define E1000_RCTL_VFE         (1u << 18)
#define E1000_RCTL_CFIEN       (1u << 19)
#define E1000_RCTL_CFI         (1u << 20)
#define E1000_RCTL_CFI         (1u << 20)
#define E1000_RCTL_DPF         (1u << 22)
#define E1000_RCTL_PMCF        (1u << 23)
#define E1000_RCTL_BSEX        (1u << 25)
#define E1000_RCTL_SECRC       (1u << 26)

/* ---- A1a: TCTL --------------------------------------------------------- */
#define E1000_TCTL_EN          (1u << 1)
#define E1000_TCTL_BCE         (1u << 2)
#define E1000_TCTL_PSP         (1u << 3)   /* pad short packets */
#define E1000_TCTL_CT_SHIFT    4
#define E1000_TCTL_CT_MASK     (0xFFu << 4)    /* collision threshold */
#define E1000_TCTL_COLD_SHIFT  12
#define E1000_TCTL_COLD_MASK   (0x3FFu << 12)  /* collision distance */
#define E1000_TCTL_SWXOFF      (1u << 22)
#define E1000_TCTL_PBE         (1u << 23)
#define E1000_TCTL_RTLC        (1u << 24)  /* retransmit on late collision */
#define E1000_TCTL_NRTU        (1u << 25)
#define E1000_TCTL_MULR        (1u << 28)
#define E1000_COLLISION_THRESHOLD 15u      /* CT value Linux writes */
#define E1000_COLLISION_DISTANCE  63u      /* COLD value Linux writes (full duplex) */

/* ---- A1a: TIPG --------------------------------------------------------- */
#define E1000_TIPG_IPGT_SHIFT   0
#define E1000_TIPG_IPGT_MASK    0x3FFu
#define E1000_TIPG_IPGR1_SHIFT  10
#define E1000_TIPG_IPGR1_MASK   (0x3FFu << 10)
#define E1000_TIPG_IPGR2_SHIFT  20
#define E1000_TIPG_IPGR2_MASK   (0x3FFu << 20)
#define E1000_DEFAULT_IPGT_COPPER 8u
#define E1000_DEFAULT_IPGT_FIBER  9u
#define E1000_DEFAULT_IPGR1       8u
#define E1000_DEFAULT_IPGR2       6u
/* 8 | 8 << 10 | 6 << 20: what Linux writes on copper */
#define E1000_TIPG_COPPER_DEFAULT 0x00602008u

/* ---- A1a: RXDCTL / TXDCTL (same layout; LWTHRESH only in TXDCTL) ------- */
#define E1000_DCTL_PTHRESH_SHIFT  0
#define E1000_DCTL_PTHRESH_MASK   0x0000003Fu
#define E1000_DCTL_HTHRESH_SHIFT  8
#define E1000_DCTL_HTHRESH_MASK   0x00003F00u  /* 13:8 (SDM's 15:8 is a typo, facts F1) */
#define E1000_DCTL_WTHRESH_SHIFT  16
#define E1000_DCTL_WTHRESH_MASK   0x003F0000u
#define E1000_DCTL_GRAN           (1u << 24)   /* 1 = descriptors, 0 = cache lines */
#define E1000_TXDCTL_LWTHRESH_SHIFT 25
#define E1000_TXDCTL_LWTHRESH_MASK  0xFE000000u /* multiples of 8 descriptors */
#define E1000_TXDCTL_PTHRESH   E1000_DCTL_PTHRESH_MASK
#define E1000_TXDCTL_HTHRESH   E1000_DCTL_HTHRESH_MASK
#define E1000_TXDCTL_WTHRESH   E1000_DCTL_WTHRESH_MASK
#define E1000_TXDCTL_GRAN      E1000_DCTL_GRAN
#define E1000_RXDCTL_PTHRESH   E1000_DCTL_PTHRESH_MASK
#define E1000_RXDCTL_HTHRESH   E1000_DCTL_HTHRESH_MASK
#define E1000_RXDCTL_WTHRESH   E1000_DCTL_WTHRESH_MASK
#define E1000_RXDCTL_GRAN      E1000_DCTL_GRAN
/* Linux e1000_init_hw on 82546: GRAN = 1, WTHRESH = 1, thresholds 0 */
#define E1000_TXDCTL_LINUX_DEFAULT 0x01010000u

/* ---- A1: RDTR / ITR / RAH ---------------------------------------------- */
#define E1000_RDTR_FPD         (1u << 31)   /* flush partial descriptor block */
#define E1000_DELAY_MASK       0xFFFFu      /* RDTR/RADV/TIDV/TADV: 1.024 us units */
#define E1000_ITR_INTERVAL_MASK 0xFFFFu     /* 256 ns units; 0 = no throttling */
#define E1000_ITR_UNIT_NS      256u
#define E1000_RAH_AV           (1u << 31)   /* address valid */

/* ---- A1: PBA ----------------------------------------------------------- */
#define E1000_PBA_RX_MASK      0x0000FFFFu  /* RX KB */
#define E1000_PBA_TX_SHIFT     16           /* TX KB in 31:16 */
#define E1000_PBA_48K          0x0030u      /* Linux's 82546 RX allocation */

/* ---- A1a: interrupt causes (ICR, ICS, IMS, IMC share the layout) ------- */
#define E1000_ICR_TXDW         (1u << 0)    /* TX descriptor written back */
#define E1000_ICR_TXQE         (1u << 1)    /* TX queue empty */
#define E1000_ICR_LSC          (1u << 2)    /* link status change */
#define E1000_ICR_RXSEQ        (1u << 3)
#define E1000_ICR_RXDMT0       (1u << 4)    /* RX descriptor minimum threshold */
#define E1000_ICR_RXO          (1u << 6)    /* RX overrun */
#define E1000_ICR_RXT0         (1u << 7)    /* RX timer */
#define E1000_ICR_MDAC         (1u << 9)
#define E1000_ICR_RXCFG        (1u << 10)
#define E1000_ICR_GPI_MASK     (0xFu << 11) /* GPI0..3 */
#define E1000_ICR_TXD_LOW      (1u << 15)
#define E1000_ICR_SRPD         (1u << 16)
#define E1000_IMS_TXDW         E1000_ICR_TXDW
#define E1000_IMS_TXQE         E1000_ICR_TXQE
#define E1000_IMS_LSC          E1000_ICR_LSC
#define E1000_IMS_RXSEQ        E1000_ICR_RXSEQ
#define E1000_IMS_RXDMT0       E1000_ICR_RXDMT0
#define E1000_IMS_RXO          E1000_ICR_RXO
#define E1000_IMS_RXT0         E1000_ICR_RXT0
#define E1000_IMS_TXD_LOW      E1000_ICR_TXD_LOW
/* What Linux enables: RXT0 | TXDW | RXDMT0 | RXSEQ | LSC = 0x9D */
#define E1000_IMS_ENABLE_MASK  (E1000_IMS_RXT0 | E1000_IMS_TXDW | E1000_IMS_RXDMT0 | \
                                E1000_IMS_RXSEQ | E1000_IMS_LSC)

/* ---- A3: statistics (all clear on read) -------------------------------- */
#define E1000_CRCERRS   0x04000u
#define E1000_ALGNERRC  0x04004u
#define E1000_SYMERRS   0x04008u
#define E1000_RXERRC    0x0400Cu
#define E1000_MPC       0x04010u  /* missed packets */
#define E1000_SCC       0x04014u
#define E1000_ECOL      0x04018u
#define E1000_MCC       0x0401Cu
#define E1000_LATECOL   0x04020u
#define E1000_COLC      0x04028u
#define E1000_DC        0x04030u
#define E1000_TNCRS     0x04034u
#define E1000_SEC       0x04038u
#define E1000_CEXTERR   0x0403Cu
#define E1000_RLEC      0x04040u
#define E1000_XONRXC    0x04048u
#define E1000_XONTXC    0x0404Cu
#define E1000_XOFFRXC   0x04050u
#define E1000_XOFFTXC   0x04054u
#define E1000_FCRUC     0x04058u
#define E1000_PRC64     0x0405Cu
#define E1000_PRC127    0x04060u
#define E1000_PRC255    0x04064u
#define E1000_PRC511    0x04068u
#define E1000_PRC1023   0x0406Cu
#define E1000_PRC1522   0x04070u
#define E1000_GPRC      0x04074u  /* good packets received */
#define E1000_BPRC      0x04078u
#define E1000_MPRC      0x0407Cu
#define E1000_GPTC      0x04080u  /* good packets transmitted */
#define E1000_GORCL     0x04088u
#define E1000_GORCH     0x0408Cu
#define E1000_GOTCL     0x04090u
#define E1000_GOTCH     0x04094u
#define E1000_RNBC      0x040A0u  /* RX no buffers */
#define E1000_RUC       0x040A4u
#define E1000_RFC       0x040A8u
#define E1000_ROC       0x040ACu
#define E1000_RJC       0x040B0u
#define E1000_TORL      0x040C0u
#define E1000_TORH      0x040C4u
#define E1000_TOTL      0x040C8u
#define E1000_TOTH      0x040CCu
#define E1000_TPR       0x040D0u
#define E1000_TPT       0x040D4u
#define E1000_PTC64     0x040D8u
#define E1000_PTC127    0x040DCu
#define E1000_PTC255    0x040E0u
#define E1000_PTC511    0x040E4u
#define E1000_PTC1023   0x040E8u
#define E1000_PTC1522   0x040ECu
#define E1000_MPTC      0x040F0u
#define E1000_BPTC      0x040F4u
#define E1000_TSCTC     0x040F8u
#define E1000_TSCTFC    0x040FCu
#define E1000_IAC       0x04100u  /* first of the newer parts' interrupt counters */
#define E1000_STATS_FIRST 0x04000u
#define E1000_STATS_LAST  0x04124u

/* ---- A2: legacy TX descriptor (DEXT = 0) ------------------------------- */
struct e1000_tx_desc {
    uint64_t buffer_addr;   /* QW0: buffer bus address */
    uint64_t cmd_sta;       /* QW1: length, CSO, CMD, STA, CSS, special */
};
#define E1000_TXD_LEN_SHIFT      0
#define E1000_TXD_LEN_MASK       0xFFFFull
#define E1000_TXD_CSO_SHIFT      16
#define E1000_TXD_CMD_SHIFT      24
#define E1000_TXD_STA_SHIFT      32
#define E1000_TXD_CSS_SHIFT      40
#define E1000_TXD_SPECIAL_SHIFT  48
/* CMD bits (within the CMD byte) */
#define E1000_TXD_CMD_EOP   0x01u  /* last descriptor of the packet */
#define E1000_TXD_CMD_IFCS  0x02u  /* insert FCS */
#define E1000_TXD_CMD_IC    0x04u  /* insert checksum */
#define E1000_TXD_CMD_RS    0x08u  /* report status: write back DD */
#define E1000_TXD_CMD_RPS   0x10u  /* report packet sent (82544 only) */
#define E1000_TXD_CMD_DEXT  0x20u  /* 0 = legacy descriptor */
#define E1000_TXD_CMD_VLE   0x40u  /* insert VLAN tag */
#define E1000_TXD_CMD_IDE   0x80u  /* interrupt delay enable (TIDV) */
/* STA bits (within the STA nibble) */
#define E1000_TXD_STAT_DD   0x01u  /* descriptor done */
#define E1000_TXD_STAT_EC   0x02u  /* excess collisions */
#define E1000_TXD_STAT_LC   0x04u  /* late collision */
#define E1000_TXD_STAT_TU   0x08u  /* transmit underrun */
/* The same bits placed in QW1 */
#define E1000_TXD_QW1_CMD(c)   ((uint64_t)(c) << E1000_TXD_CMD_SHIFT)
#define E1000_TXD_QW1_DD       ((uint64_t)E1000_TXD_STAT_DD << E1000_TXD_STA_SHIFT)
#define E1000_MAX_DATA_PER_TXD 4096u   /* Linux: 1 << 12 */
/* PCI-X erratum 10: in PCI-X mode the first descriptor of a packet must be
 * shorter than 2048 - 16 - 16 = 2016 bytes (Linux caps it at 2015). */
#define E1000_PCIX_ERRATUM10_FIRST_MAX 2015u

/* ---- A2: legacy RX descriptor ------------------------------------------ */
struct e1000_rx_desc {
    uint64_t buffer_addr;   /* QW0: written by software */
    uint64_t wb;            /* QW1: written back by hardware */
};
#define E1000_RXD_LEN_SHIFT      0    /* bytes DMA'd (includes CRC unless SECRC) */
#define E1000_RXD_LEN_MASK       0xFFFFull
#define E1000_RXD_CSUM_SHIFT     16
#define E1000_RXD_STATUS_SHIFT   32
#define E1000_RXD_ERRORS_SHIFT   40
#define E1000_RXD_SPECIAL_SHIFT  48
#define E1000_RXD_STAT_DD     0x01u
#define E1000_RXD_STAT_EOP    0x02u
#define E1000_RXD_STAT_IXSM   0x04u
#define E1000_RXD_STAT_VP     0x08u
#define E1000_RXD_STAT_UDPCS  0x10u
#define E1000_RXD_STAT_TCPCS  0x20u
#define E1000_RXD_STAT_IPCS   0x40u
#define E1000_RXD_STAT_PIF    0x80u
#define E1000_RXD_ERR_CE      0x01u   /* CRC error */
#define E1000_RXD_ERR_SE      0x02u   /* symbol error */
#define E1000_RXD_ERR_SEQ     0x04u
#define E1000_RXD_ERR_CXE     0x10u
#define E1000_RXD_ERR_TCPE    0x20u
#define E1000_RXD_ERR_IPE     0x40u
#define E1000_RXD_ERR_RXE     0x80u
/* Errors that make Linux drop the frame (checksum errors TCPE/IPE do not) */
#define E1000_RXD_ERR_FRAME_ERR_MASK (E1000_RXD_ERR_CE | E1000_RXD_ERR_SE | E1000_RXD_ERR_SEQ | \
                                      E1000_RXD_ERR_CXE | E1000_RXD_ERR_RXE)
#define E1000_RXD_SPECIAL_VID_MASK 0x0FFFu
#define E1000_RXD_SPECIAL_CFI      0x1000u
#define E1000_RXD_SPECIAL_PRI_SHIFT 13
#define E1000_RXD_QW1_DD       ((uint64_t)E1000_RXD_STAT_DD << E1000_RXD_STATUS_SHIFT)

/* ---- A5: ring limits ---------------------------------------------------- */
#define E1000_DESC_BYTES     16u
#define E1000_MIN_TXD        48u
#define E1000_MAX_TXD        4096u   /* 82544 and later */
#define E1000_MIN_RXD        48u
#define E1000_MAX_RXD        4096u
#define E1000_RING_MULTIPLE  8u      /* TDLEN/RDLEN: multiple of 128 B */
#define E1000_DEFAULT_TXD    256u
#define E1000_DEFAULT_RXD    256u

#endif
