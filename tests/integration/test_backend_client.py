"""The shared backend client: base URLs and mirrors, deadlines, retries, rate limits, the cache, errors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import TYPE_CHECKING

import httpx
import pytest
import respx
from botocore.exceptions import EndpointConnectionError

from mcp_platform.backends import BACKENDS, PLATFORM_AGENT, BackendClient, PoliteLimiter, ResponseCache, provenance
from mcp_platform.protocol.errors import ToolError
from mcp_platform.storage.aws import client as aws_client

if TYPE_CHECKING:
    from collections.abc import Iterator

PUBCHEM = BACKENDS["pubchem"]
PATH = "/rest/pug/compound/cid/2244/property/MolecularFormula/JSON"
BODY = {"PropertyTable": {"Properties": [{"CID": 2244, "MolecularFormula": "C9H8O4"}]}}


class FakeTime:
    """A monotonic clock that `sleep` moves forward: retries and rate limits without waiting."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 3))
        self.now += seconds


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


MIRROR = "http://mirror.test/pubchem/"
"""PubChem's origin as `make_client` configures it: a mirror with a path prefix."""


@pytest.fixture
def mirror() -> Iterator[respx.MockRouter]:
    """Every request to the PubChem mirror `make_client` is configured with, mocked."""
    with respx.mock(base_url="http://mirror.test/pubchem", assert_all_called=False) as router:
        yield router


def make_client(
    fake_time: FakeTime, cache: ResponseCache | None = None, origin: str = MIRROR, **limits: float
) -> BackendClient:
    limiter = PoliteLimiter(
        limits.get("rate", 100.0), burst=int(limits.get("burst", 10)), clock=fake_time.clock, sleep=fake_time.sleep
    )
    return BackendClient(
        PUBCHEM,
        origin=origin,
        http=httpx.Client(),
        cache=cache if cache is not None else ResponseCache(table_name=""),
        limiter=limiter,
        clock=fake_time.clock,
        sleep=fake_time.sleep,
    )


def test_path_is_appended_to_the_mirror_prefix_with_the_platform_user_agent(mirror, fake_time) -> None:
    route = mirror.get(PATH, params={"x": "1"}).respond(200, json=BODY)
    answer = make_client(fake_time).get(PATH, {"x": 1}, deadline=fake_time.now + 5)
    request = route.calls.last.request
    assert str(request.url) == "http://mirror.test/pubchem" + PATH + "?x=1"
    assert request.headers["User-Agent"] == PLATFORM_AGENT and "McpPlatform" in PLATFORM_AGENT
    assert request.headers["Accept"] == "application/json"
    assert answer.data == BODY and answer.from_cache is False
    assert provenance(answer) == {
        "source": {"api": "PubChem", "url": "http://mirror.test/pubchem" + PATH + "?x=1", "cached": False},
        "retrieved_at": answer.retrieved_at,
    }


def test_request_timeout_is_cut_to_the_calls_deadline(mirror, fake_time) -> None:
    route = mirror.get(PATH).respond(200, json=BODY)
    make_client(fake_time).get(PATH, deadline=fake_time.now + 2.5)
    timeouts = route.calls.last.request.extensions["timeout"]
    assert timeouts["read"] == pytest.approx(2.5) and timeouts["connect"] == pytest.approx(2.5)
    route2 = mirror.get("/rest/pug/other").respond(200, json={})
    make_client(fake_time).get("/rest/pug/other", deadline=fake_time.now + 60)
    assert route2.calls.last.request.extensions["timeout"]["read"] == PUBCHEM.timeout_s


@pytest.mark.parametrize("value", ["ftp://mirror.test/pubchem", "mirror.test", "http:///nohost", "http://h/p?q=1"])
def test_only_http_and_https_origins_are_accepted(fake_time, value: str) -> None:
    with pytest.raises(ToolError) as caught:
        make_client(fake_time, origin=value).get(PATH)
    assert caught.value.code == "provider_not_configured" and "PUBCHEM_BASE_URL" in caught.value.message


def test_default_origin_is_the_public_api() -> None:
    assert PUBCHEM.base_url("") == "https://pubchem.ncbi.nlm.nih.gov"
    assert {b.env: b.default_url for b in BACKENDS.values()} == {
        "PUBCHEM_BASE_URL": "https://pubchem.ncbi.nlm.nih.gov",
        "RXNAV_BASE_URL": "https://rxnav.nlm.nih.gov",
        "OPENFDA_BASE_URL": "https://api.fda.gov",
        "DAILYMED_BASE_URL": "https://dailymed.nlm.nih.gov",
        "GBIF_BASE_URL": "https://api.gbif.org",
        "POWO_BASE_URL": "https://powo.science.kew.org",
        "DSLD_BASE_URL": "https://api.ods.od.nih.gov",
        "ODS_BASE_URL": "https://ods.od.nih.gov",
    }


def test_not_found_names_what_was_looked_up(mirror, fake_time) -> None:
    mirror.get(PATH).respond(404, json={"Fault": {"Code": "PUGREST.NotFound"}})
    with pytest.raises(ToolError) as caught:
        make_client(fake_time).get(PATH, what="compound with CID 2244")
    assert caught.value.code == "not_found"
    assert caught.value.message == "PubChem has no compound with CID 2244"


@pytest.mark.parametrize(
    ("reply", "fragment"),
    [
        (httpx.Response(500), "PubChem is failing (HTTP 500)"),
        (httpx.Response(403), "PubChem refused our credentials (HTTP 403)"),
        (httpx.Response(400), "PubChem refused the request (HTTP 400)"),
        (httpx.Response(404), "PubChem refused the request (HTTP 404)"),  # no `what`: a wrong endpoint
        (httpx.ConnectError("refused"), "PubChem is unreachable (ConnectError)"),
        (httpx.ReadTimeout("slow"), "PubChem did not answer in time"),
    ],
)
def test_failures_are_upstream_unavailable_naming_the_backend(mirror, fake_time, reply, fragment: str) -> None:
    mirror.get(PATH).mock(side_effect=[reply])
    with pytest.raises(ToolError) as caught:
        make_client(fake_time).get(PATH)
    assert caught.value.code == "upstream_unavailable"
    assert fragment in caught.value.message
    assert caught.value.extra["backend"] == "PubChem"


def test_429_is_retried_after_the_seconds_it_asks(mirror, fake_time) -> None:
    route = mirror.get(PATH).mock(
        side_effect=[httpx.Response(429, headers={"Retry-After": "2"}), httpx.Response(200, json=BODY)]
    )
    answer = make_client(fake_time).get(PATH, deadline=fake_time.now + 10)
    assert answer.data == BODY and route.call_count == 2
    assert fake_time.slept == [2.0]


def test_503_retry_after_as_an_http_date(mirror, fake_time) -> None:
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=3), usegmt=True)
    route = mirror.get(PATH).mock(
        side_effect=[httpx.Response(503, headers={"Retry-After": when}), httpx.Response(200, json=BODY)]
    )
    make_client(fake_time).get(PATH, deadline=fake_time.now + 10)
    assert route.call_count == 2
    assert 1.0 <= fake_time.slept[0] <= 3.0


def test_retry_after_past_the_deadline_is_not_waited_for(mirror, fake_time) -> None:
    route = mirror.get(PATH).mock(side_effect=[httpx.Response(429, headers={"Retry-After": "30"})])
    with pytest.raises(ToolError) as caught:
        make_client(fake_time).get(PATH, deadline=fake_time.now + 5)
    assert route.call_count == 1 and fake_time.slept == []
    assert caught.value.code == "upstream_unavailable" and caught.value.extra["status"] == 429
    assert "retry after 30 s, past this call's deadline" in caught.value.message


def test_retries_stop_after_three_attempts(mirror, fake_time) -> None:
    route = mirror.get(PATH).respond(503)
    with pytest.raises(ToolError) as caught:
        make_client(fake_time).get(PATH, deadline=fake_time.now + 30)
    assert route.call_count == 3 and fake_time.slept == [0.5, 1.0]  # no Retry-After: backoff
    assert "PubChem is failing (HTTP 503)" in caught.value.message


def test_the_polite_rate_is_kept(mirror, fake_time) -> None:
    route = mirror.get(PATH).respond(200, json=BODY)
    client = make_client(fake_time, rate=5, burst=5)
    start = fake_time.now
    for i in range(15):
        client.get(PATH, {"i": i}, deadline=fake_time.now + 10)
    assert route.call_count == 15
    # 5 at once, then one every 0.2 s: 15 requests take 2 s.
    assert fake_time.now - start == pytest.approx(2.0)


def test_a_rate_wait_past_the_deadline_is_refused(mirror, fake_time) -> None:
    mirror.get(PATH).respond(200, json=BODY)
    client = make_client(fake_time, rate=1, burst=1)
    client.get(PATH, {"i": 1})
    with pytest.raises(ToolError) as caught:
        client.get(PATH, {"i": 2}, deadline=fake_time.now + 0.5)
    assert (
        caught.value.code == "upstream_unavailable"
        and "polite limit of 1 requests/s is used up" in caught.value.message
    )


def test_accepted_statuses_are_answers(mirror, fake_time) -> None:
    mirror.get(PATH).respond(404, json={"error": {"code": "NOT_FOUND"}})
    answer = make_client(fake_time).get(PATH, accept={404}, what="x")
    assert answer.status == 404 and answer.data["error"]["code"] == "NOT_FOUND"


@pytest.mark.parametrize("body", ["<html>busy</html>", pytest.param("[" * 25_000, id="nested-too-deeply")])
def test_unreadable_json_is_upstream_unavailable(mirror, fake_time, body: str) -> None:
    mirror.get(PATH).respond(200, text=body)
    answer = make_client(fake_time).get(PATH)
    with pytest.raises(ToolError) as caught:
        answer.data  # noqa: B018
    assert (
        caught.value.code == "upstream_unavailable" and "PubChem sent an answer we cannot read" in caught.value.message
    )


def test_a_repeated_question_never_reaches_the_api(aws, mirror, fake_time) -> None:
    route = mirror.get(PATH).respond(200, json=BODY)
    first = make_client(fake_time, ResponseCache("BackendCacheTable")).get(PATH)
    again = make_client(fake_time, ResponseCache("BackendCacheTable")).get(PATH)  # a new container: DynamoDB
    same = make_client(fake_time, ResponseCache("BackendCacheTable"))
    same.get(PATH)
    same.get(PATH)  # memory
    assert route.call_count == 1
    assert again.from_cache and again.data == BODY and again.retrieved_at == first.retrieved_at
    item = aws_client("dynamodb").scan(TableName="BackendCacheTable")["Items"][0]
    assert item["backend"]["S"] == "pubchem"
    assert 0 < float(item["expires_at"]["N"]) - datetime.now(UTC).timestamp() <= PUBCHEM.cache_ttl_s


def test_expired_answers_are_fetched_again(aws, mirror, fake_time) -> None:
    route = mirror.get(PATH).respond(200, json=BODY)
    make_client(fake_time, ResponseCache("BackendCacheTable")).get(PATH)
    later = ResponseCache("BackendCacheTable", clock=lambda: datetime.now(UTC).timestamp() + PUBCHEM.cache_ttl_s + 1)
    make_client(fake_time, later).get(PATH)
    assert route.call_count == 2


def test_ttl_zero_and_failures_are_not_cached(aws, mirror, fake_time) -> None:
    route = mirror.get(PATH).mock(side_effect=[httpx.Response(500), httpx.Response(200, json=BODY)] * 2)
    cache = ResponseCache("BackendCacheTable")
    with pytest.raises(ToolError):
        make_client(fake_time, cache).get(PATH)
    make_client(fake_time, cache).get(PATH, ttl_s=0)
    assert aws_client("dynamodb").scan(TableName="BackendCacheTable")["Count"] == 0
    assert route.call_count == 2


class DownStore:
    """A DynamoDB client whose every call fails as an unreachable endpoint does."""

    def __getattr__(self, name: str):
        def fail(**_kwargs: object) -> None:
            raise EndpointConnectionError(endpoint_url="http://dynamodb.test")

        return fail


def test_a_cache_outage_costs_time_not_the_answer(mirror, fake_time) -> None:
    route = mirror.get(PATH).respond(200, json=BODY)
    for _ in range(2):
        cache = ResponseCache("BackendCacheTable", dynamodb=DownStore())
        assert make_client(fake_time, cache).get(PATH).data == BODY
    assert route.call_count == 2


def test_the_openfda_key_travels_as_a_parameter_but_never_into_source(aws, fake_time) -> None:
    from mcp_platform.backends import backend_client, describe
    from mcp_platform.runtime.settings import BackendSettings

    class Drug(BackendSettings):
        openfda_base_url: str = ""
        openfda_api_key_parameter: str = ""

    aws_client("ssm").put_parameter(Name="/mcp/test/openfda", Value="fda-secret", Type="SecureString")
    keyed = Drug(openfda_base_url="http://fda.test", openfda_api_key_parameter="/mcp/test/openfda")
    assert (
        describe("openfda", keyed)["key_configured"] is True and describe("openfda", Drug())["key_configured"] is False
    )
    with respx.mock(base_url="http://fda.test") as router:
        route = router.get("/drug/event.json").respond(200, json={"results": []})
        answer = backend_client("openfda", keyed).get("/drug/event.json", {"search": 'x:"y"'})
        backend_client("openfda", Drug(openfda_base_url="http://fda.test")).get("/drug/event.json", {"q": "1"})
    assert route.calls[0].request.url.params["api_key"] == "fda-secret"
    assert "fda-secret" not in answer.url and "api_key" not in answer.url
    assert "api_key" not in route.calls[1].request.url.params  # no key configured, none sent


def test_retry_after_dates_without_a_zone_are_utc() -> None:
    from mcp_platform.backends.client import _retry_after

    assert _retry_after("Wed, 21 Oct 2015 07:28:00 -0000", 1) == 0.0  # in the past: retry at once
    assert _retry_after("garbage", 2) == 1.0  # unreadable: backoff


def test_a_functions_setting_is_the_origin_and_is_checked_like_the_variable(monkeypatch, fake_time) -> None:
    from mcp_platform.backends import backend_client, describe
    from mcp_platform.runtime.settings import BackendSettings, SettingsError

    class Compound(BackendSettings):
        pubchem_base_url: str = ""

    monkeypatch.setenv("PUBCHEM_BASE_URL", "http://from-the-process.test")  # another function's, in-process
    mirror = Compound(pubchem_base_url="http://mirror.test/pubchem/")
    assert backend_client("pubchem", mirror).public_url("/x") == "http://mirror.test/pubchem/x"
    assert describe("pubchem", Compound())["base_url"] == "https://pubchem.ncbi.nlm.nih.gov"
    with pytest.raises(ToolError, match="PUBCHEM_BASE_URL must be an http"):
        backend_client("pubchem", Compound(pubchem_base_url="ftp://mirror.test")).get(PATH)
    with pytest.raises(SettingsError, match="declare RXNAV_BASE_URL"):
        backend_client("rxnav", mirror)
