# Sourced by the shell test drivers (testbench/hil/hil.sh,
# testbench/cosim/cosim.sh, testbench/cluster/run.sh): collect test cases
# and write them as a JUnit report, whole or not at all.
#   junit_record NAME SECONDS FAILURE OUTPUT   (FAILURE empty: passed)
#   junit_write FILE SUITE                     (SUITE: the testsuite and class name)
#   junit_failed                               (exit status 0 when a case failed)
junit_cases=()

junit_xml_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'; }

junit_record() { junit_cases+=("$1|$2|$3|$4"); }

# Record a case and say on the terminal how it went:
#   junit_case TAG NAME SECONDS FAILURE SUMMARY OUTPUT
# prints "TAG: PASS SUMMARY", or "TAG: FAIL SUMMARY" and "TAG: FAILURE" on
# stderr (the caller adds what explains it); exit status 1 when it failed.
junit_case() {
    local tag=$1 name=$2 secs=$3 fail=$4 summary=$5 output=$6
    junit_record "$name" "$secs" "$fail" "$summary
$output"
    if [ -z "$fail" ]; then
        echo "$tag: PASS $summary"
        return 0
    fi
    echo "$tag: FAIL $summary" >&2
    echo "$tag: $fail" >&2
    return 1
}

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

# The expected side of a capture comparison (make hil, make cosim):
#   expected_capture TAG BUILD SCENARIO PCAP
# runs the simulator on SCENARIO with its capture into PCAP (its report in
# PCAP.txt) and sets $frames to the capture's frame count; then the
# negative control, recorded as the case NegativeControl: the comparison
# must see one byte of the first frame's UDP payload changed.  Returns 1
# when the simulator run failed.
expected_capture() {
    local tag=$1 build=$2 ini=$3 pcap=$4 out
    "$build/nicsim" run "$ini" capture.pcap="$pcap" > "$pcap.txt" || return 1
    frames=$("$build/pcap-compare" "$pcap" "$pcap" | grep -o '[0-9]* frames' | grep -o '[0-9]*')
    echo "$tag: simulator: $frames frames in $pcap"
    if out=$("$build/pcap-compare" --flip 1:45 "$pcap" "$pcap"); then
        junit_record NegativeControl 0 "a capture with one byte changed compared equal" "$out"
        echo "$tag: FAILED: the comparison does not see a one-byte change" >&2
    else
        junit_record NegativeControl 0 "" "$out"
        echo "$tag: negative control: a one-byte change is caught ($(echo "$out" | head -1))"
    fi
}
