"""The bot's aiohttp requests behave as PTB's own httpx requests do: same bodies, same errors."""

import asyncio
import socket

import pytest
import pytest_asyncio
from aiohttp import web
from telegram import InputFile
from telegram.error import NetworkError, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.http_client import AiohttpRequest

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def server():
    """A local HTTP server that records what it was sent; /slow answers after 2 s."""
    seen = []

    async def echo(request: web.Request) -> web.Response:
        if request.content_type.startswith("multipart/"):
            fields = {}
            async for part in await request.multipart():
                fields[part.name] = (part.filename, await part.read())
        else:
            fields = dict(await request.post())
        seen.append((request.path, request.headers.get("User-Agent"), fields))
        return web.json_response({"ok": True, "result": True})

    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(2)
        return web.json_response({"ok": True, "result": True})

    app = web.Application()
    app.router.add_post("/bot1:x/slow", slow)
    app.router.add_post("/bot1:x/{method}", echo)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/bot1:x", seen
    await runner.cleanup()


def _data(**parameters) -> RequestData:
    return RequestData([RequestParameter.from_input(name, value) for name, value in parameters.items()])


async def test_parameters_arrive_as_a_form_and_the_answer_is_parsed(server):
    url, seen = server
    async with AiohttpRequest(tls=False) as request:
        result = await request.post(f"{url}/editMessageText", _data(chat_id=-100, text="Zamu yako 🂡"))
    assert result is True
    fields = {"chat_id": "-100", "text": "Zamu yako 🂡"}
    assert seen == [("/bot1:x/editMessageText", AiohttpRequest.USER_AGENT, fields)]


async def test_a_file_goes_as_multipart_beside_the_other_parameters(server):
    url, seen = server
    document = InputFile(b"match,winner\n1,Amina\n", filename="history.csv")
    async with AiohttpRequest(tls=False) as request:
        await request.post(f"{url}/sendDocument", _data(chat_id=7, document=document))
    ((path, _, fields),) = seen
    assert path == "/bot1:x/sendDocument"
    assert fields["chat_id"] == (None, b"7")
    assert ("history.csv", b"match,winner\n1,Amina\n") in fields.values()


async def test_a_slow_answer_is_a_timeout(server):
    url, _ = server
    async with AiohttpRequest(tls=False) as request:
        with pytest.raises(TimedOut):
            await request.post(f"{url}/slow", _data(chat_id=1), read_timeout=0.2)


async def test_an_unreachable_server_is_a_network_error():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again below: nothing listens there
    async with AiohttpRequest(tls=False) as request:
        with pytest.raises(NetworkError) as caught:
            await request.post(f"http://127.0.0.1:{port}/bot1:x/getMe")
    assert not isinstance(caught.value, TimedOut)


async def test_a_request_after_shutdown_is_refused_and_a_new_start_works_again(server):
    url, seen = server
    request = AiohttpRequest(tls=False)
    await request.initialize()
    await request.shutdown()
    with pytest.raises(NetworkError, match="not initialized"):  # PTB wraps it, as for its httpx request
        await request.post(f"{url}/getMe")
    await request.initialize()
    await request.post(f"{url}/getMe")
    await request.shutdown()
    assert len(seen) == 1


@pytest_asyncio.fixture
async def proxy():
    """A stand-in HTTP proxy: records each request line and answers every call with ok."""
    lines = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        lines.append(head.split(b"\r\n", 1)[0].decode())
        sizes = [line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")]
        length = int(sizes[0]) if sizes else 0
        await reader.readexactly(length)
        body = b'{"ok": true, "result": true}'
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
        writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}", lines
    server.close()
    await server.wait_closed()


async def test_calls_go_through_the_proxy_the_environment_names(proxy, monkeypatch):
    address, lines = proxy
    monkeypatch.setenv("HTTP_PROXY", address)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    async with AiohttpRequest(tls=False) as request:
        await request.post("http://api.karata.invalid/bot1:x/getMe")
    assert lines == ["POST http://api.karata.invalid/bot1:x/getMe HTTP/1.1"]


async def test_a_host_that_no_proxy_names_is_reached_directly(server, proxy, monkeypatch):
    url, seen = server
    address, lines = proxy
    monkeypatch.setenv("HTTP_PROXY", address)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    async with AiohttpRequest(tls=False) as request:
        await request.post(f"{url}/getMe")
    assert lines == [] and len(seen) == 1
