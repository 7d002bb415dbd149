/* Intel 82599 (Linux "ixgbe", "Niantic") register offsets, bit fields and
 * the advanced descriptor layouts the ixgbe driver core uses: the contract
 * between the core, the fake platform of its unit tests and, later, a device
 * model.  Facts only, from docs/nic-facts.md section B (B1 register
 * map and bits, B1a the ixy bring-up sequence, B2 advanced descriptors, B3
 * prefetch/write-back and Linux/DPDK defaults), which cites ixy's copy of
 * Intel's ixgbe_type.h, ixy's ixgbe.c and the Linux ixgbe driver.  Each group
 * below names the section it comes from.  Names follow Linux (IXGBE_*).
 *
 * Registers are 32 bits wide.  Descriptors are 16 bytes, two little-endian
 * 64-bit words; the core accesses them as two qwords through
 * plat_mem_read64/plat_mem_write64, so the layouts are given as shifts within
 * those qwords (QW0 = bytes 0-7, QW1 = bytes 8-15). */
#ifndef NICSIM_IXGBE_REGS_H
#define NICSIM_IXGBE_REGS_H
#include <stdint.h>

/* The qword shifts below describe the little-endian memory image. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the ixgbe driver core assumes a little-endian host"
#endif

/* ---- B1: general registers ----------------------------------------------- */
#define IXGBE_CTRL         0x00000u  /* device control */
#define IXGBE_STATUS       0x00008u  /* device status */
#define IXGBE_CTRL_EXT     0x00018u  /* extended device control */
#define IXGBE_EEC          0x10010u  /* EEPROM/flash control */
#define IXGBE_EICR         0x00800u  /* extended interrupt cause */
#define IXGBE_EICS         0x00808u  /* extended interrupt cause set */
#define IXGBE_EIAC         0x00810u  /* auto-clear */
#define IXGBE_EIMS         0x00880u  /* interrupt mask set (read: the mask) */
#define IXGBE_EIMC         0x00888u  /* interrupt mask clear */
#define IXGBE_EIAM         0x00890u  /* auto-mask */
/* The 82599's auto-mask of queue vectors 0..31, where Linux 3.18's
 * ixgbe_setup_gpie writes it (ixgbe_type.h IXGBE_EIAM_EX(0); the same bits
 * as EIAM in the model) */
#define IXGBE_EIAM_EX(n)   (0x00AD0u + 4u * (uint32_t)(n))
#define IXGBE_GPIE         0x00898u  /* general-purpose interrupt enable */
/* EITR: vectors 0..23 at 0x820 + 4n; higher vectors live in a second bank
 * whose base nic-facts does not give, so the macro covers 0..23 only. */
#define IXGBE_EITR_VECTORS 24u
#define IXGBE_EITR(n)      (0x00820u + 4u * (uint32_t)(n))

/* CTRL (B1) */
#define IXGBE_CTRL_GIO_DIS   (1u << 2)
#define IXGBE_CTRL_LNK_RST   (1u << 3)    /* link reset */
#define IXGBE_CTRL_RST       (1u << 26)   /* device reset */
#define IXGBE_CTRL_RST_MASK  (IXGBE_CTRL_LNK_RST | IXGBE_CTRL_RST)

/* STATUS (B1) */
#define IXGBE_STATUS_LAN_ID_SHIFT 2
#define IXGBE_STATUS_LAN_ID_MASK  (3u << 2)
#define IXGBE_STATUS_GIO          (1u << 19)  /* GIO master enable status */

/* CTRL_EXT (B1) */
#define IXGBE_CTRL_EXT_PFRSTD    (1u << 14)
#define IXGBE_CTRL_EXT_NS_DIS    (1u << 16)   /* no-snoop disable */
#define IXGBE_CTRL_EXT_RO_DIS    (1u << 17)   /* relaxed-ordering disable */
#define IXGBE_CTRL_EXT_DRV_LOAD  (1u << 28)

/* EEC (B1) */
#define IXGBE_EEC_PRES  (1u << 8)    /* EEPROM present */
#define IXGBE_EEC_ARD   (1u << 9)    /* EEPROM auto-read done */

/* EICR/EICS/EIMS/EIMC (B1): queue causes 15:0, link status change 20 */
#define IXGBE_EICR_RTX_QUEUE_MASK 0x0000FFFFu
#define IXGBE_EICR_LSC            (1u << 20)
#define IXGBE_EIMC_ALL            0xFFFFFFFFu

/* EITR (B1, B3): interval in bits 11:3.  The 82599 counts it in 2.048 us
 * units (DPDK ixgbe_ethdev.h; ixgbe_type.h IXGBE_MAX_INT_RATE 488281;
 * docs/pktgen-napi.md); Linux and ixy write us * 4 as if the unit were 2 us,
 * and the drivers here do the same, so "us" below is the drivers' name for
 * an interval that lasts 1.024 times as long. */
#define IXGBE_EITR_ITR_INT_MASK  0x00000FF8u
#define IXGBE_EITR_CNT_WDIS      (1u << 31)
#define IXGBE_EITR_UNIT_NS       2048u
#define IXGBE_EITR_MAX_US        (IXGBE_EITR_ITR_INT_MASK / 4u)  /* 1022 us [derived] */

/* GPIE (B1) */
#define IXGBE_GPIE_MSIX_MODE    (1u << 4)
#define IXGBE_GPIE_EIAME        (1u << 30)
#define IXGBE_GPIE_PBA_SUPPORT  (1u << 31)

/* ---- B1: receive --------------------------------------------------------- */
/* Queue registers n < 64: 0x1000 + 0x40n */
#define IXGBE_RX_QUEUES      64u
#define IXGBE_RDBAL(n)       (0x01000u + 0x40u * (uint32_t)(n))
#define IXGBE_RDBAH(n)       (0x01004u + 0x40u * (uint32_t)(n))
#define IXGBE_RDLEN(n)       (0x01008u + 0x40u * (uint32_t)(n))
#define IXGBE_RDH(n)         (0x01010u + 0x40u * (uint32_t)(n))
#define IXGBE_RDT(n)         (0x01018u + 0x40u * (uint32_t)(n))
#define IXGBE_RXDCTL(n)      (0x01028u + 0x40u * (uint32_t)(n))
#define IXGBE_QPRC(n)        (0x01030u + 0x40u * (uint32_t)(n))   /* 16 queues */
#define IXGBE_QBRC_L(n)      (0x01034u + 0x40u * (uint32_t)(n))
#define IXGBE_QBRC_H(n)      (0x01038u + 0x40u * (uint32_t)(n))
/* SRRCTL and DCA_RXCTRL: n <= 15 at base + 4n */
#define IXGBE_SRRCTL_QUEUES  16u
#define IXGBE_SRRCTL(n)      (0x02100u + 4u * (uint32_t)(n))
#define IXGBE_DCA_RXCTRL(n)  (0x02200u + 4u * (uint32_t)(n))
#define IXGBE_RDRXCTL        0x02F00u
#define IXGBE_RXCTRL         0x03000u
#define IXGBE_PB_COUNT       8u       /* packet buffers: RXPBSIZE/TXPBSIZE/MPC/RNBC 0..7 */
#define IXGBE_RXPBSIZE(n)    (0x03C00u + 4u * (uint32_t)(n))
#define IXGBE_FCTRL          0x05080u
#define IXGBE_MTA(n)         (0x05200u + 4u * (uint32_t)(n))
#define IXGBE_VLNCTRL        0x05088u  /* VET (15:0), CFI (28), CFIEN (29), VFE (30) */
#define IXGBE_VLNCTRL_VFE    (1u << 30)
#define IXGBE_VFTA(n)        (0x0A000u + 4u * (uint32_t)(n))       /* VLAN filter table, n <= 127 */
#define IXGBE_MCSTCTRL       0x05090u  /* MO (1:0), MFE (2): the multicast table's hash and enable */
#define IXGBE_RAL(n)         (0x05400u + 8u * (uint32_t)(n))       /* n <= 15 */
#define IXGBE_RAH(n)         (0x05404u + 8u * (uint32_t)(n))
/* the same entries and 112 more, n <= 127 (DPDK's and Linux's IXGBE_RAL(n)
 * for n > 15) */
#define IXGBE_RAL_ALL(n)     (0x0A200u + 8u * (uint32_t)(n))
#define IXGBE_RAH_ALL(n)     (0x0A204u + 8u * (uint32_t)(n))
#define IXGBE_RAH_AV         (1u << 31)
#define IXGBE_MCSTCTRL_MFE   (1u << 2)

/* RXDCTL (B1) */
#define IXGBE_RXDCTL_ENABLE  (1u << 25)
#define IXGBE_RXDCTL_SWFLSH  (1u << 26)
#define IXGBE_RXDCTL_VME     (1u << 30)

/* SRRCTL (B1) */
#define IXGBE_SRRCTL_BSIZEPKT_MASK   0x0000007Fu   /* 6:0, 1 KB units */
#define IXGBE_SRRCTL_BSIZEPKT_SHIFT  10            /* bytes >> 10 = the field */
#define IXGBE_SRRCTL_BSIZEHDR_SHIFT  8             /* 13:8, 64-byte units */
#define IXGBE_SRRCTL_BSIZEHDR_MASK   (0x3Fu << 8)
#define IXGBE_SRRCTL_RDMTS_SHIFT     22            /* 24:22 */
#define IXGBE_SRRCTL_RDMTS_MASK      (7u << 22)
#define IXGBE_SRRCTL_DESCTYPE_MASK   (7u << 25)    /* 27:25 */
#define IXGBE_SRRCTL_DESCTYPE_LEGACY        (0u << 25)
#define IXGBE_SRRCTL_DESCTYPE_ADV_ONEBUF    (1u << 25)
#define IXGBE_SRRCTL_DESCTYPE_HDR_SPLIT     (2u << 25)
#define IXGBE_SRRCTL_DESCTYPE_SPLIT_ALWAYS  (5u << 25)
#define IXGBE_SRRCTL_DROP_EN         (1u << 28)

/* DCA_RXCTRL (B1): bit 12 is reserved, resets to 1, and ixy clears it
 * because the datasheet says to write 0 there. */
#define IXGBE_DCA_RXCTRL_RSVD12      (1u << 12)

/* RDRXCTL (B1) */
#define IXGBE_RDRXCTL_CRCSTRIP  (1u << 1)
#define IXGBE_RDRXCTL_DMAIDONE  (1u << 3)

/* RXCTRL (B1) */
#define IXGBE_RXCTRL_RXEN       (1u << 0)

/* RXPBSIZE (B1): size in KB in bits 19:10 */
#define IXGBE_PBSIZE_KB_SHIFT   10
#define IXGBE_PBSIZE_KB_MASK    (0x3FFu << 10)
/* B1 gives the field only for RXPBSIZE.  TXPBSIZE uses the same place:
 * ixy-t's IXGBE_TXPBSIZE_40KB is 0xA000 = 40 << 10 (looked up in ixy-t,
 * not recorded in nic-facts). */

/* FCTRL (B1) */
#define IXGBE_FCTRL_SBP   (1u << 1)
#define IXGBE_FCTRL_MPE   (1u << 8)    /* multicast promiscuous */
#define IXGBE_FCTRL_UPE   (1u << 9)    /* unicast promiscuous */
#define IXGBE_FCTRL_BAM   (1u << 10)   /* accept broadcast */
#define IXGBE_FCTRL_PMCF  (1u << 12)
#define IXGBE_FCTRL_DPF   (1u << 13)
#define IXGBE_FCTRL_RFCE  (1u << 15)

/* ---- B1: MAC ------------------------------------------------------------- */
#define IXGBE_HLREG0       0x04240u
#define IXGBE_AUTOC        0x042A0u
#define IXGBE_LINKS        0x042A4u

/* HLREG0 (B1) */
#define IXGBE_HLREG0_TXCRCEN    (1u << 0)
#define IXGBE_HLREG0_RXCRCSTRP  (1u << 1)
#define IXGBE_HLREG0_JUMBOEN    (1u << 2)
#define IXGBE_HLREG0_TXPADEN    (1u << 10)
#define IXGBE_HLREG0_LPBK       (1u << 15)

/* AUTOC (B1) */
#define IXGBE_AUTOC_10G_PMA_PMD_SHIFT 7
#define IXGBE_AUTOC_10G_PMA_PMD_MASK  (3u << 7)   /* 8:7 */
#define IXGBE_AUTOC_10G_XAUI          (0u << 7)
#define IXGBE_AUTOC_AN_RESTART        (1u << 12)
#define IXGBE_AUTOC_LMS_SHIFT         13
#define IXGBE_AUTOC_LMS_MASK          (7u << 13)  /* 15:13 */
#define IXGBE_AUTOC_LMS_10G_SERIAL    (3u << 13)  /* 011 */
#define IXGBE_AUTOC_LMS_KX4_KX_KR     (4u << 13)  /* 100 */

/* LINKS (B1) */
#define IXGBE_LINKS_UP          (1u << 30)
#define IXGBE_LINKS_SPEED_SHIFT 28
#define IXGBE_LINKS_SPEED_MASK  (3u << 28)
#define IXGBE_LINKS_SPEED_10G   (3u << 28)
#define IXGBE_LINKS_SPEED_1G    (2u << 28)
#define IXGBE_LINKS_SPEED_100M  (1u << 28)

/* ---- B1: statistics (cleared on read) ------------------------------------ */
#define IXGBE_MPC(n)     (0x03FA0u + 4u * (uint32_t)(n))   /* missed, per packet buffer */
#define IXGBE_RNBC(n)    (0x03FC0u + 4u * (uint32_t)(n))   /* no buffers, per packet buffer */
#define IXGBE_CRCERRS    0x04000u
#define IXGBE_GPRC       0x04074u
#define IXGBE_BPRC       0x04078u
#define IXGBE_MPRC       0x0407Cu
#define IXGBE_GPTC       0x04080u
#define IXGBE_GORCL      0x04088u
#define IXGBE_GORCH      0x0408Cu
#define IXGBE_GOTCL      0x04090u
#define IXGBE_GOTCH      0x04094u
#define IXGBE_RUC        0x040A4u
#define IXGBE_RFC        0x040A8u
#define IXGBE_ROC        0x040ACu
#define IXGBE_RJC        0x040B0u
#define IXGBE_TORL       0x040C0u
#define IXGBE_TORH       0x040C4u
#define IXGBE_TPR        0x040D0u
#define IXGBE_TPT        0x040D4u

/* ---- B1: transmit -------------------------------------------------------- */
#define IXGBE_TX_QUEUES      64u      /* the 0x6000 + 0x40n bank */
#define IXGBE_TDBAL(n)       (0x06000u + 0x40u * (uint32_t)(n))
#define IXGBE_TDBAH(n)       (0x06004u + 0x40u * (uint32_t)(n))
#define IXGBE_TDLEN(n)       (0x06008u + 0x40u * (uint32_t)(n))
#define IXGBE_TDH(n)         (0x06010u + 0x40u * (uint32_t)(n))
#define IXGBE_TDT(n)         (0x06018u + 0x40u * (uint32_t)(n))
#define IXGBE_TXDCTL(n)      (0x06028u + 0x40u * (uint32_t)(n))
#define IXGBE_QPTC(n)        (0x06030u + 0x40u * (uint32_t)(n))
#define IXGBE_TDWBAL(n)      (0x06038u + 0x40u * (uint32_t)(n))
#define IXGBE_TDWBAH(n)      (0x0603Cu + 0x40u * (uint32_t)(n))
/* 82599 places (Linux and DPDK ixgbe_type.h); 0x6034 + 0x40n was the
 * 82598's 32-bit QBTC */
#define IXGBE_QBTC_L(n)      (0x08700u + 8u * (uint32_t)(n))
#define IXGBE_QBTC_H(n)      (0x08704u + 8u * (uint32_t)(n))
#define IXGBE_RTTDCS         0x04900u
#define IXGBE_DMATXCTL       0x04A80u
#define IXGBE_DTXMXSZRQ      0x08100u
#define IXGBE_TXPBSIZE(n)    (0x0CC00u + 4u * (uint32_t)(n))

/* TXDCTL (B1): 7-bit thresholds (ixy-c's comment and masks) */
#define IXGBE_TXDCTL_PTHRESH_SHIFT 0
#define IXGBE_TXDCTL_HTHRESH_SHIFT 8
#define IXGBE_TXDCTL_WTHRESH_SHIFT 16
#define IXGBE_TXDCTL_THRESH_MAX    0x7Fu
#define IXGBE_TXDCTL_ENABLE        (1u << 25)
#define IXGBE_TXDCTL_SWFLSH        (1u << 26)

/* TDWBAL (B1): flags in the low bits of the head write-back address */
#define IXGBE_TDWBAL_HEAD_WB_ENABLE   (1u << 0)
#define IXGBE_TDWBAL_SEQNUM_WB_ENABLE (1u << 1)

/* RTTDCS, DMATXCTL, DTXMXSZRQ (B1, B1a) */
#define IXGBE_RTTDCS_ARBDIS    (1u << 6)
#define IXGBE_DMATXCTL_TE      (1u << 0)
#define IXGBE_DTXMXSZRQ_IXY    0xFFFFu      /* the value ixy writes (B1) */

/* ---- B2: advanced TX data descriptor (read format) ------------------------ */
struct ixgbe_adv_tx_desc {
    uint64_t buffer_addr;   /* QW0: buffer bus address */
    uint64_t cmd_type_len;  /* QW1: DTALEN, DTYP, DCMD, STA, IDX, CC, POPTS, PAYLEN */
};
#define IXGBE_ADVTXD_DTALEN_MASK   0xFFFFull                 /* QW1 15:0 */
#define IXGBE_ADVTXD_MAX_DTALEN    0xFFFFu
#define IXGBE_ADVTXD_DTYP_SHIFT    20                        /* QW1 23:20 */
#define IXGBE_ADVTXD_DTYP_MASK     (0xFull << 20)
#define IXGBE_ADVTXD_DTYP_DATA     (0x3ull << 20)            /* 0011 */
#define IXGBE_ADVTXD_DTYP_CTXT     (0x2ull << 20)            /* 0010 */
#define IXGBE_ADVTXD_DCMD_SHIFT    24                        /* QW1 31:24 */
/* DCMD bits within the DCMD byte (QW1 bit = 24 + bit) */
#define IXGBE_TXD_CMD_EOP   0x01u   /* 24: last descriptor of the packet */
#define IXGBE_TXD_CMD_IFCS  0x02u   /* 25: insert FCS */
#define IXGBE_TXD_CMD_RS    0x08u   /* 27: report status */
#define IXGBE_TXD_CMD_DEXT  0x20u   /* 29: advanced descriptor, must be 1 */
#define IXGBE_TXD_CMD_VLE   0x40u   /* 30: insert VLAN */
#define IXGBE_TXD_CMD_TSE   0x80u   /* 31: TCP segmentation */
#define IXGBE_ADVTXD_DCMD(c)       ((uint64_t)(c) << IXGBE_ADVTXD_DCMD_SHIFT)
#define IXGBE_ADVTXD_STA_SHIFT     32                        /* QW1 35:32 */
#define IXGBE_ADVTXD_STAT_DD       (1ull << 32)              /* on write-back */
#define IXGBE_ADVTXD_IDX_SHIFT     36                        /* QW1 38:36 */
#define IXGBE_ADVTXD_CC            (1ull << 39)
#define IXGBE_ADVTXD_POPTS_SHIFT   40                        /* QW1 45:40 */
#define IXGBE_ADVTXD_PAYLEN_SHIFT  46                        /* QW1 63:46, 18 bits */
#define IXGBE_ADVTXD_PAYLEN_MAX    0x3FFFFu

/* ---- B2: advanced RX descriptor ------------------------------------------- */
/* Read format (software): QW0 packet buffer address, QW1 header buffer
 * address.  Write-back (hardware) overlays both qwords:
 *   QW0  DW0 RSS type / packet type / RSCCNT / HDR_LEN / SPH, DW1 RSS hash;
 *   QW1  DW2 extended status 19:0 and errors 31:20, then PKT_LEN (bytes
 *        12-13, QW1 47:32) and the VLAN tag (bytes 14-15, QW1 63:48).
 * Bit 0 of both addresses lies under A0/DD of the write-back (nic-facts F9),
 * so a posted packet buffer address must be even and the header address 0. */
struct ixgbe_adv_rx_desc {
    uint64_t pkt_addr;      /* QW0: read format; write-back DW0/DW1 */
    uint64_t hdr_addr;      /* QW1: read format (0); write-back status/errors/length/VLAN */
};
#define IXGBE_RXDADV_STAT_DD     (1u << 0)
#define IXGBE_RXDADV_STAT_EOP    (1u << 1)
#define IXGBE_RXDADV_STAT_FLM    (1u << 2)
#define IXGBE_RXDADV_STAT_VP     (1u << 3)
#define IXGBE_RXDADV_STAT_UDPCS  (1u << 4)
#define IXGBE_RXDADV_STAT_L4CS   (1u << 5)
#define IXGBE_RXDADV_STAT_IPCS   (1u << 6)
#define IXGBE_RXDADV_STAT_PIF    (1u << 7)
#define IXGBE_RXDADV_STAT_MASK   0x000FFFFFu   /* DW2 19:0 */
#define IXGBE_RXDADV_ERR_SHIFT   20            /* DW2 31:20 */
#define IXGBE_RXDADV_ERR_MASK    0xFFF00000u
#define IXGBE_RXDADV_ERR_HBO     (1u << 23)
#define IXGBE_RXDADV_ERR_CE      (1u << 24)
#define IXGBE_RXDADV_ERR_LE      (1u << 25)
#define IXGBE_RXDADV_ERR_PE      (1u << 27)
#define IXGBE_RXDADV_ERR_OSE     (1u << 28)
#define IXGBE_RXDADV_ERR_RXE     (1u << 29)    /* RXE on the 82599 (USE on the 82598) */
#define IXGBE_RXDADV_ERR_TCPE    (1u << 30)
#define IXGBE_RXDADV_ERR_IPE     (1u << 31)
/* The errors that drop a frame on the 82599: RXE only (B2) */
#define IXGBE_RXDADV_ERR_FRAME_ERR_MASK_82599 IXGBE_RXDADV_ERR_RXE
#define IXGBE_RXDADV_QW1_DD      ((uint64_t)IXGBE_RXDADV_STAT_DD)
#define IXGBE_RXDADV_QW1_EOP     ((uint64_t)IXGBE_RXDADV_STAT_EOP)
#define IXGBE_RXDADV_LEN_SHIFT   32            /* PKT_LEN: QW1 47:32 */
#define IXGBE_RXDADV_VLAN_SHIFT  48            /* VLAN tag: QW1 63:48 */
/* DW0 packet types (B2) */
#define IXGBE_RXDADV_PKTTYPE_IPV4 0x00000010u
#define IXGBE_RXDADV_PKTTYPE_UDP  0x00000200u

/* ---- B3, B1a: rings --------------------------------------------------------- */
#define IXGBE_DESC_BYTES     16u
#define IXGBE_MIN_TXD        64u      /* Linux ixgbe.h (B3) */
#define IXGBE_MAX_TXD        4096u    /* Linux and ixy (B3, B1a) */
#define IXGBE_DEFAULT_TXD    512u
/* Linux ixgbe.h IXGBE_REQ_TX_DESCRIPTOR_MULTIPLE: ixgbe_set_ringparam aligns
 * a ring size to it (TDLEN is in 128-byte units); no power of 2 needed */
#define IXGBE_TXD_MULTIPLE   8u
#define IXGBE_MIN_RXD        64u
#define IXGBE_MAX_RXD        4096u
#define IXGBE_DEFAULT_RXD    512u     /* 4 KB pages; 128 with pages >= 8 KB (B3) */
#define IXGBE_TX_DESC_CACHE  40u      /* on-chip TX descriptors per queue: keep
                                         PTHRESH + WTHRESH <= 40 (B3) */

#endif
