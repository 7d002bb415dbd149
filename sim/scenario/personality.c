/* The NIC personalities; see personality.h. */
#include "personality.h"
#include "driver_options.h"
#include <stdio.h>
#include <string.h>

static const nic_personality personalities[] = {
    { .model = "82546", .title = "82546 (PCI-X)", .bus = NIC_BUS_PCIX, .rtl = NIC_RTL_82546, .rtl_one_port = 1,
      .port = &port_e1000_core, .port_options = driver_options_e1000_port },
    { .model = "82599", .title = "82599 (PCIe)", .bus = NIC_BUS_PCIE, .rtl = NIC_RTL_82599, .rtl_one_port = 1,
      .adv_descriptors = 1, .port = &port_ixgbe_core, .port_options = driver_options_ixgbe_port },
};

const nic_personality *nic_personality_find(const char *model)
{
    for (size_t i = 0; i < sizeof personalities / sizeof personalities[0]; i++)
        if (!strcmp(personalities[i].model, model))
            return &personalities[i];
    return NULL;
}

void nic_personality_models_of(const struct nic_port_core *core, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof personalities / sizeof personalities[0]; i++)
        if (personalities[i].port == core && len < n)
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", personalities[i].model);
}

const nic_personality *nic_personality_of(const scenario *sc)
{
    return nic_personality_find(scenario_str(sc, "nic", "model"));
}
