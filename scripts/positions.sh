# Positions for the depth scripts (sourced): the standard opening, the
# opening of archive game 669182, and four middlegames of the bench set
# (src/tools/bench.rs), by game id and move.
OPEN="g [rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]"
OPEN2="g [rrrrrrrrdhcmcehd                                RHDMEDHRRRRCCRRR]"
M1="s [rrrc  rr           ch d  Dr    d m     r    e  E      hR    R   ]"  # 669261 m99
M2="s [  rrr  rrcr  rc R  dd h H     H  Em     h De RCR CRDM     R R  R]"  # 669138 m53
M3="g [  r rrrrrcr drc    h     mH    H    EC     Me  R RR DCh R  R  D ]"  # 669263 m56
M4="s [r  r  r  rD rr  r     c  HE  e r      hR   R  R dCR  D  R   R   ]"  # 669171 m55
