"""`make sam-local`: the deployed path on this machine, through `sam local` and Docker.

    sam local start-api (PORT)  →  RouterFunction container (Mangum → router)
        → botocore Invoke  →  sam local start-lambda (LAMBDA_PORT)  →  service function container
    both  →  the embedded local store (moto server, LOCAL_AWS_PORT)

`make sam-local` has started the Docker engine, built the stand-in invoke image
(INVOKE_IMAGE) and run `sam build`; this starts the store, seeds the dev account
as `make dev` does (PORT, DEV_API_KEY, DEV_CREDITS), then both `sam local`
servers, and stops everything on Ctrl-C or SIGTERM. Which functions exist, and
the router's name for each, come from template.yaml (with PARAMETER_OVERRIDES
deciding its Conditions), never from a second list.

Containers reach the host through Docker's default bridge: the store and
start-lambda listen on the bridge's address too (`host.docker.internal` in
events/sam-local-env.json is mapped to it), never on an outside interface.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shlex
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from localdev import template
from localdev.server import LocalPlatform, LocalSettingError, integer_setting

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

ENV_FILE = template.ROOT / "events" / "sam-local-env.json"
BUILT_TEMPLATE = template.ROOT / ".aws-sam" / "build" / "template.yaml"
READY_SECONDS = 120
_FUNCTION = "AWS::Serverless::Function"
_SIOCGIFADDR = 0x8915


@dataclass(frozen=True)
class SamLocal:
    sam: str
    invoke_image: str
    lambda_port: int
    bridge_ip: str
    parameter_overrides: str = ""
    """SAM's `--parameter-overrides` (`Name=Value …`), from PARAMETER_OVERRIDES."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SamLocal:
        image = env.get("INVOKE_IMAGE", "")
        if not image:
            raise LocalSettingError("INVOKE_IMAGE is not set: run `make sam-local`, which builds the image first")
        sam = cls(
            sam=env.get("SAM", "sam"),
            invoke_image=image,
            lambda_port=integer_setting(env, "LAMBDA_PORT", 3001),
            bridge_ip=env.get("DOCKER_BRIDGE_IP") or bridge_address(),
            parameter_overrides=env.get("PARAMETER_OVERRIDES", ""),
        )
        sam.parameters()  # a malformed value is refused before anything starts
        return sam

    def parameters(self) -> dict[str, str]:
        """PARAMETER_OVERRIDES as a mapping (shell-style quoting, as SAM reads it)."""
        out = {}
        for pair in shlex.split(self.parameter_overrides):
            name, sep, value = pair.partition("=")
            if not sep or not name:
                raise LocalSettingError(f"PARAMETER_OVERRIDES: {pair!r} is not Name=Value")
            out[name] = value
        return out

    def functions(self) -> list[template.FunctionWiring]:
        """The functions this stack has: one whose `Condition` does not hold is not created, as in AWS."""
        parameters = self.parameters()
        return [
            f for f in template.functions() if f.condition is None or template.condition_holds(f.condition, parameters)
        ]

    def common_args(self, env_file: Path) -> list[str]:
        args = [
            "--invoke-image",
            self.invoke_image,
            "--skip-pull-image",
            "--env-vars",
            str(env_file),
            "--add-host",
            f"host.docker.internal:{self.bridge_ip}",
            "--warm-containers",
            "LAZY",
            "--region",
            "us-east-1",
        ]
        if self.parameter_overrides:
            args += ["--parameter-overrides", self.parameter_overrides]
        for function in self.functions():
            if function.package_type == "Image":
                # Its code is its own image; SAM would otherwise run the stand-in image (no code) for it too.
                image = template.parameter_value(function.image_uri, self.parameters())
                args += ["--invoke-image", f"{function.logical_id}={image}"]
        return args

    def env_file(self, aws_port: int, directory: Path, api_port: int = 3000) -> tuple[Path, dict[str, dict[str, str]]]:
        """events/sam-local-env.json with the actual ports and the router's entry for each service function.

        The entries come from the template (`service_function_names`), so a new service needs none here.
        """
        text = ENV_FILE.read_text()
        text = text.replace("host.docker.internal:4566", f"host.docker.internal:{aws_port}")
        text = text.replace("host.docker.internal:3001", f"host.docker.internal:{self.lambda_port}")
        text = text.replace("127.0.0.1:3000", f"127.0.0.1:{api_port}")  # the OAuth issuer and resource origin
        overrides: dict[str, dict[str, str]] = json.loads(text)
        functions = self.functions()
        router = next(f.logical_id for f in functions if f.service == "router")
        overrides[router].update(service_function_names(functions))
        path = directory / "sam-local-env.json"
        path.write_text(json.dumps(overrides, indent=1))
        return path, overrides


def service_function_names(functions: Iterable[template.FunctionWiring]) -> dict[str, str]:
    """The router's `SERVICE_FUNCTION_<SERVICE>` entries: each tool service's function by its logical id.

    start-lambda knows a function by its logical id, not its deployed `FunctionName`.
    """
    return {
        f"SERVICE_FUNCTION_{f.service.upper()}": f.logical_id
        for f in functions
        if f.service not in template.PLATFORM_FUNCTIONS
    }


def sam_local_template(built_template: Path, overrides: dict[str, dict[str, str]], functions: Iterable[str]) -> Path:
    """The built template as `sam local` should run it, as JSON next to it.

    Only `functions` (logical ids) are kept: `sam local` ignores a resource's
    `Condition`, so a function AWS would not create is removed here. Every
    local-only variable of `overrides` is declared: `sam local` sets only the
    variables a function's template declares (an `--env-vars` entry for any
    other name is silently dropped), and the local ones (AWS_ENDPOINT_URL_*,
    SERVICE_FUNCTION_*) must not be in the deployed template. A template
    variable (STAGING_BUCKET, …) is overridden only where the function declares
    it, so a block missing one fails here as in AWS. CodeUri paths stay
    relative to the build directory.
    """
    doc = yaml.load(built_template.read_text(), Loader=template.CfnLoader)
    kept = set(functions)
    doc["Resources"] = {
        lid: res for lid, res in doc["Resources"].items() if res.get("Type") != _FUNCTION or lid in kept
    }
    blocks = {
        lid: res["Properties"].setdefault("Environment", {}).setdefault("Variables", {})
        for lid, res in doc["Resources"].items()
        if res.get("Type") == _FUNCTION
    }
    declared = set(doc.get("Globals", {}).get("Function", {}).get("Environment", {}).get("Variables", {}))
    declared.update(*blocks.values())
    local_only = [name for name in overrides.get("Parameters", {}) if name not in declared]
    for logical_id, variables in blocks.items():
        for name in [*local_only, *overrides.get(logical_id, {})]:
            variables.setdefault(name, "")
    path = built_template.with_name("template.sam-local.json")
    path.write_text(json.dumps(doc, indent=1))
    return path


def bridge_address(interface: str = "docker0") -> str:
    """The host's IPv4 address on Docker's default bridge (SIOCGIFADDR: no `ip` binary needed)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            packed = fcntl.ioctl(s.fileno(), _SIOCGIFADDR, struct.pack("256s", interface.encode()))
    except OSError as exc:
        raise LocalSettingError(f"no IPv4 address on {interface} ({exc}): is the Docker engine running?") from None
    return socket.inet_ntoa(packed[20:24])


def _wait_for_port(host: str, port: int, proc: subprocess.Popen[bytes], name: str) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex((host, port)) == 0:
                return
        time.sleep(0.3)
    raise RuntimeError(f"{name} did not listen on {host}:{port} within {READY_SECONDS} s")


def serve(sam: SamLocal, platform: LocalPlatform, key: str, env: dict[str, str]) -> int:
    """Run start-lambda and start-api until Ctrl-C / SIGTERM or until one exits; stop both."""
    procs: list[subprocess.Popen[bytes]] = []
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    with tempfile.TemporaryDirectory(prefix="sam-local-") as tmp:
        env_file, overrides = sam.env_file(platform.aws_port, Path(tmp), platform.port)
        local = sam_local_template(BUILT_TEMPLATE, overrides, (f.logical_id for f in sam.functions()))
        args = [*sam.common_args(env_file), "--template", str(local)]
        servers = [
            ("start-lambda", sam.bridge_ip, sam.lambda_port),  # reached by the router's container
            ("start-api", "127.0.0.1", platform.port),  # reached by clients on this machine
        ]
        try:
            for command, host, port in servers:
                argv = [sam.sam, "local", command, "--host", host, "--port", str(port), *args]
                procs.append(subprocess.Popen(argv, cwd=template.ROOT, env=env, start_new_session=True))
                _wait_for_port(host, port, procs[-1], f"sam local {command}")
            print(platform.banner(key).replace("all services in-process", "every function in its container"))
            print(f"  lambda     http://{sam.bridge_ip}:{sam.lambda_port} (sam local start-lambda)", flush=True)
            while not stopping and all(p.poll() is None for p in procs):
                time.sleep(0.2)
        except RuntimeError as exc:
            print(f"make sam-local: {exc}", file=sys.stderr)
            return 1
        finally:
            for proc in reversed(procs):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
            for proc in procs:
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
    if not stopping:
        print("make sam-local: a sam local server exited; stopped the other", file=sys.stderr)
        return 1
    return 0


def main() -> int:
    template.add_code_paths()
    try:
        platform = LocalPlatform.from_env(os.environ)
        sam = SamLocal.from_env(os.environ)
    except LocalSettingError as exc:
        print(f"make sam-local: {exc}", file=sys.stderr)
        return 2
    # Taken before the store adds its in-process defaults: `sam local` lets the shell override template values.
    env = {
        **os.environ,
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        "AWS_DEFAULT_REGION": "us-east-1",
    }
    env.pop("AWS_PROFILE", None)
    try:
        platform.start_store(also_on=(sam.bridge_ip,))  # the containers reach the same store on the bridge
        key = platform.seed()
    except OSError as exc:
        print(f"make sam-local: cannot start the local store on port {platform.aws_port}: {exc}", file=sys.stderr)
        return 1
    return serve(sam, platform, key, env)


if __name__ == "__main__":
    sys.exit(main())
