# Sourced by the shell test drivers (testbench/hil/hil.sh,
# testbench/cosim/cosim.sh): collect test cases and write them as a JUnit
# report, whole or not at all.
#   junit_record NAME SECONDS FAILURE OUTPUT   (FAILURE empty: passed)
#   junit_write FILE SUITE                     (SUITE: the testsuite and class name)
#   junit_failed                               (exit status 0 when a case failed)
junit_cases=()

junit_xml_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'; }

junit_record() { junit_cases+=("$1|$2|$3|$4"); }

junit_failed() {
    local c fail
    for c in "${junit_cases[@]}"; do IFS='|' read -r _ _ fail _ <<< "$c"; [ -z "$fail" ] || return 0; done
    return 1
}

junit_write() {
    local out=$1 suite=$2 n=${#junit_cases[@]} f=0 c name secs fail text
    for c in "${junit_cases[@]}"; do IFS='|' read -r _ _ fail _ <<< "$c"; [ -z "$fail" ] || f=$((f + 1)); done
    {
        echo '<?xml version="1.0" encoding="UTF-8"?>'
        echo "<testsuites tests=\"$n\" failures=\"$f\" errors=\"0\" name=\"${suite,,}\">"
        echo "<testsuite name=\"$suite\" tests=\"$n\" failures=\"$f\" errors=\"0\">"
        for c in "${junit_cases[@]}"; do
            IFS='|' read -r name secs fail text <<< "$c"
            echo "<testcase name=\"$name\" classname=\"$suite\" time=\"$secs\">"
            [ -z "$fail" ] || echo "<failure message=\"$(echo "$fail" | junit_xml_escape)\"/>"
            echo "<system-out>$(echo "$text" | junit_xml_escape)</system-out></testcase>"
        done
        echo '</testsuite>'
        echo '</testsuites>'
    } > "$out.tmp" && mv "$out.tmp" "$out"
}
