"""Serial URLs checked before pyserial sees them (issue 18 item 16)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.connectors.sio import LinkError, check_url


@pytest.mark.parametrize("url", ["socket://localhost:5000", "rfc2217://10.0.0.1:2217", "loop://",
                                 "/dev/ttyUSB0", "spy://loop://", "socket://[::1]:80"])
def test_usable_urls_pass(url):
    check_url(url)


@pytest.mark.parametrize("url", ["socket://127.0.0.1", "socket://", "socket://:80", "SOCKET://h:0",
                                 "socket://h:65536", "socket://h:x", "rfc2217://h", "socket://[::1"])
def test_network_urls_without_host_or_port_are_named(url):
    with pytest.raises(LinkError, match="give a host and a port from 1 to 65535"):
        check_url(url)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=30),
                 st.builds("{}://{}".format, st.sampled_from(["socket", "rfc2217", "Socket"]),
                           st.text(alphabet=st.sampled_from("ab1:[]%@/?#.-0"), max_size=16))))
def test_random_urls_raise_only_link_errors(url):
    try:
        check_url(url)
    except LinkError:
        pass
