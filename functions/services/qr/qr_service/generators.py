"""The generator tools: build the payload, encode it, stage the image."""

from __future__ import annotations

from typing import TYPE_CHECKING

from qr_service import epc
from qr_service.output import image_result
from qr_service.payloads import geo_payload, vcard_payload, wifi_payload
from qr_service.rendering import qr_code, render_barcode, render_qr

if TYPE_CHECKING:
    from mcp_platform.contracts.qr import BarcodeInput, EpcInput, GenerateInput, GeoInput, VcardInput, WifiInput
    from mcp_platform.runtime.service import ServiceContext, ToolOutput


def qr_generate(arguments: GenerateInput, ctx: ServiceContext) -> ToolOutput:
    qr = qr_code(arguments.data, arguments.error_correction, micro=arguments.micro)
    return image_result(render_qr(qr, arguments.data, arguments), ctx, "qr")


def qr_wifi(arguments: WifiInput, ctx: ServiceContext) -> ToolOutput:
    return _text_qr(wifi_payload(arguments), arguments, ctx, "wifi")


def qr_vcard(arguments: VcardInput, ctx: ServiceContext) -> ToolOutput:
    return _text_qr(vcard_payload(arguments), arguments, ctx, "contact")


def qr_geo(arguments: GeoInput, ctx: ServiceContext) -> ToolOutput:
    return _text_qr(geo_payload(arguments), arguments, ctx, "location")


def qr_epc(arguments: EpcInput, ctx: ServiceContext) -> ToolOutput:
    payload = epc.epc_payload(arguments)
    # EPC069-12: level M exactly (no boosting) and a version no higher than 13.
    qr = qr_code(payload.encode(), epc.ERROR_CORRECTION, boost_error=False)
    if qr.version > epc.MAX_VERSION:
        raise epc.too_large(f"the payment code needs QR version {qr.version}; EPC069-12 allows {epc.MAX_VERSION}")
    return image_result(render_qr(qr, payload, arguments), ctx, "sepa-payment")


def qr_barcode(arguments: BarcodeInput, ctx: ServiceContext) -> ToolOutput:
    rendered = render_barcode(
        arguments.data,
        arguments.symbology,
        arguments,
        human_readable=arguments.human_readable,
        quiet_zone=arguments.quiet_zone,
    )
    return image_result(rendered, ctx, arguments.symbology)


def _text_qr(payload: str, arguments: WifiInput | VcardInput | GeoInput, ctx: ServiceContext, stem: str) -> ToolOutput:
    qr = qr_code(payload, arguments.error_correction)
    return image_result(render_qr(qr, payload, arguments), ctx, stem)
